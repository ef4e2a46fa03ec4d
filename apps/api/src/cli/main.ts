import type { CliIo } from './io.ts'
import { EXIT } from './io.ts'
import { runGymCommand } from './gymCommand.ts'
import { runServeCommand } from './serveCommand.ts'

interface Command {
  readonly summary: string
  run(argv: readonly string[], io: CliIo): number | Promise<number>
}

/** Every command of the `cutover` CLI (PRODUCT.md §4, CONTRACTS.md §6). */
const COMMANDS: { readonly [name: string]: Command } = {
  serve: { summary: 'serve the API and the inspector (same as npm start)', run: runServeCommand },
  gym: { summary: 'one environment as a stand-alone NeMo Gym resources server', run: runGymCommand },
}

export const USAGE = `usage: cutover <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join('\n')}

Run \`cutover <command> --help\` for a command's options.`

/** Dispatches one CLI invocation; returns the exit code (servers keep the process alive). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${USAGE}\n`)
    return name === undefined ? EXIT.usage : EXIT.ok
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr(`cutover: unknown command '${name}'\n${USAGE}\n`)
    return EXIT.usage
  }
  return await command.run(rest, io)
}

const isEntry = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isEntry) {
  const io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }
  runCli(process.argv.slice(2), io).then(
    (code) => {
      if (code !== EXIT.ok || (process.argv[2] !== 'serve' && process.argv[2] !== 'gym')) process.exitCode = code
    },
    (error: unknown) => {
      io.stderr(`cutover: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exitCode = EXIT.usage
    },
  )
}
