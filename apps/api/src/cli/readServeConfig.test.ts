import { describe, expect, it } from 'vitest'
import { readServeConfig } from './readServeConfig.ts'

describe('cutover serve configuration', () => {
  it('[security] binds to 127.0.0.1:8787 by default; --host wins over HOST', () => {
    expect(readServeConfig([], {})).toMatchObject({
      ok: true,
      value: { host: '127.0.0.1', port: 8787 },
    })
    expect(readServeConfig([], { HOST: 'localhost', PORT: '0' })).toMatchObject({
      ok: true,
      value: { host: 'localhost', port: 0 },
    })
    expect(readServeConfig(['--host', '::1'], { HOST: '127.0.0.1' })).toMatchObject({
      ok: true,
      value: { host: '::1' },
    })
  })

  it('[security] binding beyond loopback needs CUTOVER_CONTROL_TOKEN', () => {
    const refused = readServeConfig(['--host', '0.0.0.0'], {})
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error).toContain('CUTOVER_CONTROL_TOKEN')
    expect(readServeConfig([], { HOST: '192.168.1.5', CUTOVER_CONTROL_TOKEN: '' }).ok).toBe(false)
    expect(
      readServeConfig([], { HOST: '192.168.1.5', CUTOVER_CONTROL_TOKEN: 't0k3n' }),
    ).toMatchObject({ ok: true, value: { host: '192.168.1.5', controlToken: 't0k3n' } })
  })

  it('[security] unknown options, bad ports and bad limits are usage errors naming them', () => {
    for (const [argv, env, needle] of [
      [['--hots', 'x'], {}, '--hots'],
      [['extra'], {}, 'extra'],
      [[], { PORT: '70000' }, 'PORT'],
      [[], { CUTOVER_MAX_RUNS: '0' }, 'CUTOVER_MAX_RUNS'],
    ] as const) {
      const read = readServeConfig(argv, env)
      expect(read.ok).toBe(false)
      if (!read.ok) expect(read.error).toContain(needle)
    }
  })
})
