import { describe, expect, it } from 'vitest'
import { allowedHostNames, guardHost, isAllowedHost, isLoopbackHost } from './guardHost.ts'

describe('Host check', () => {
  it('[security] loopback names and the bound name, with the bound port, and nothing else', () => {
    const names = allowedHostNames('127.0.0.1')
    for (const host of ['127.0.0.1:8787', 'localhost:8787', 'LocalHost:8787', '[::1]:8787'])
      expect(isAllowedHost(host, names, 8787), host).toBe(true)
    for (const host of [
      '127.0.0.1',
      'localhost:80',
      'evil.example.com:8787',
      '127.0.0.1:8788',
      '127.0.0.1:8787@evil',
      'localhost:8787.evil',
      '',
    ])
      expect(isAllowedHost(host, names, 8787), host).toBe(false)
    expect(isAllowedHost(null, names, 8787)).toBe(false)
    expect(isAllowedHost('myhost.lan:8787', allowedHostNames('myhost.lan'), 8787)).toBe(true)
    expect(isAllowedHost('[fe80::1]:8787', allowedHostNames('fe80::1'), 8787)).toBe(true)
    expect(isAllowedHost('localhost', allowedHostNames('127.0.0.1'), 80)).toBe(true)
  })

  it('[security] a foreign Host never reaches the app', async () => {
    let reached = 0
    const fetch = guardHost(
      () => ((reached += 1), new Response('ok')),
      '127.0.0.1',
      () => 4000,
    )
    const refused = await fetch(
      new Request('http://x/api/runs', {
        method: 'POST',
        headers: { host: 'evil.example.com:4000' },
      }),
    )
    expect(refused.status).toBe(421)
    expect(await refused.json()).toMatchObject({ error: { code: 'host_not_allowed' } })
    expect(reached).toBe(0)
    expect(
      (await fetch(new Request('http://x/', { headers: { host: 'localhost:4000' } }))).status,
    ).toBe(200)
    expect(reached).toBe(1)
  })

  it('[security] loopback addresses are told apart from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com', '127.0.0.1.evil.com'])
      expect(isLoopbackHost(host), host).toBe(false)
  })
})
