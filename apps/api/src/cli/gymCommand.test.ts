import { afterEach, describe, expect, it } from 'vitest'
import { runGymCommand } from './gymCommand.ts'
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

const savedToken = process.env.CUTOVER_CONTROL_TOKEN
afterEach(() => {
  if (savedToken === undefined) delete process.env.CUTOVER_CONTROL_TOKEN
  else process.env.CUTOVER_CONTROL_TOKEN = savedToken
})

describe('cutover gym', () => {
  it('[cli] gym is a registered command with --help', async () => {
    const help = capture()
    expect(await runCli(['--help'], help.io)).toBe(0)
    expect(help.out.join('')).toContain('gym')
    const gymHelp = capture()
    expect(await runCli(['gym', '--help'], gymHelp.io)).toBe(0)
    expect(gymHelp.out.join('')).toContain('--restore-expected')
  })

  it('[cli] usage errors exit 2 with one line on stderr', async () => {
    delete process.env.CUTOVER_CONTROL_TOKEN
    const cases: [string[], RegExp][] = [
      [[], /name an environment/],
      [['poker'], /unknown environment 'poker'/],
      [['counter', '--port', '70000'], /--port takes an integer/],
      [['counter', '--port'], /--port needs a value/],
      [['counter', '--verbose'], /unknown option --verbose/],
      [['counter', 'blackjack'], /unexpected argument blackjack/],
      [['counter', '--restore-expected'], /needs CUTOVER_CONTROL_TOKEN/],
    ]
    for (const [argv, message] of cases) {
      const { io, err } = capture()
      expect(await runGymCommand(argv, io), argv.join(' ')).toBe(2)
      expect(err.join('')).toMatch(message)
      expect(err.join('').trim().split('\n')).toHaveLength(1)
    }
  })
})
