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
  it('[cli] --help lists every command and every checkpoint operation in aligned columns', async () => {
    const { io, out } = capture()
    expect(await runCli(['--help'], io)).toBe(0)
    const text = out.join('')
    const rows = text.split('\n').filter((line) => /^ {2}\S/.test(line))
    const names = rows.map((line) => line.trim().split(/\s+/)[0])
    for (const name of ['serve', 'simulate', 'verify', 'env', 'gym', 'model', 'agent'])
      expect(names).toContain(name)
    for (const name of ['checkpoint', 'fleet', 'inspect', 'diff', 'bench'])
      expect(names).toContain(name)
    // the summaries start in one column, and every line fits 100 columns
    const column = new Set(rows.map((line) => /^ {2}\S+ +/.exec(line)?.[0].length))
    expect(column.size).toBe(1)
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(100)
    expect(text).toContain('operations: prepare, commit, restore, resume, abort, status')
  })

  it('[cli] an unknown command is a usage error that names the nearest command', async () => {
    const { io, err } = capture()
    expect(await runCli(['frobnicate'], io)).toBe(2)
    expect(err.join('')).toContain("unknown command 'frobnicate'")
    const near = capture()
    expect(await runCli(['simulat'], near.io)).toBe(2)
    expect(near.err.join('')).toContain("did you mean 'simulate'?")
  })
})
