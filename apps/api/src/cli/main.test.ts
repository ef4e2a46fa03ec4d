import { describe, expect, it } from 'vitest'
import { runCli } from './main.ts'

function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}

describe('cutover CLI dispatch', () => {
  it('[cli] --help lists the commands and exits 0', async () => {
    const { io, out } = capture()
    expect(await runCli(['--help'], io)).toBe(0)
    expect(out.join('')).toContain('serve')
  })

  it('[cli] an unknown command prints usage on stderr and exits 2', async () => {
    const { io, err } = capture()
    expect(await runCli(['frobnicate'], io)).toBe(2)
    expect(err.join('')).toContain("unknown command 'frobnicate'")
  })
})
