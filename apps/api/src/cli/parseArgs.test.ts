import { describe, expect, it } from 'vitest'
import { UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'

const spec = { values: ['--seed', '--out'], switches: ['--json'], positionals: 1 }

describe('parseArgs', () => {
  it('[cli] reads --name value, --name=value, switches and allowed positionals', () => {
    const parsed = parseArgs(['DIR', '--seed', '7', '--out=/tmp/x', '--json'], spec)
    expect(Object.fromEntries(parsed.values)).toEqual({ '--seed': '7', '--out': '/tmp/x' })
    expect([...parsed.switches]).toEqual(['--json'])
    expect(parsed.positionals).toEqual(['DIR'])
  })

  it('[cli] unknown, repeated, valueless options and surplus positionals are usage errors', () => {
    for (const argv of [
      ['--nope'],
      ['--seed', '1', '--seed', '2'],
      ['--seed'],
      ['a', 'b'],
      ['--json=1'],
    ]) {
      expect(() => parseArgs(argv, spec), argv.join(' ')).toThrow(UsageError)
    }
  })

  it('[cli] integer options take plain digits within their range', () => {
    expect(parseIntegerOption('--n', '42', 1, 100)).toBe(42)
    for (const bad of ['0', '101', '-1', '1e2', '0x10', ' 5', ''])
      expect(() => parseIntegerOption('--n', bad, 1, 100), bad).toThrow(UsageError)
  })

  it('[cli] --help and -h are found anywhere', () => {
    expect(wantsHelp(['--seed', '1', '--help'])).toBe(true)
    expect(wantsHelp(['-h'])).toBe(true)
    expect(wantsHelp(['--seed', '1'])).toBe(false)
  })
})
