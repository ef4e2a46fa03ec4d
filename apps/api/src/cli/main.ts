import type { CliIo } from '../process/io.ts'
import { EXIT } from '../process/io.ts'
import { readFileSync } from 'node:fs'
import { runEnvCommand } from './envCommand.ts'
import { runGymCommand } from './gymCommand.ts'
import { runVerifyCommand } from './verifyCommand.ts'
import { runServeCommand } from './serveCommand.ts'
import { runSimulateCommand } from './simulateCommand.ts'
import { runBenchCommand } from './benchCommand.ts'
import { runInspectCommand } from './inspectCommand.ts'
import { runDiffCommand } from './diffCommand.ts'
import { runModelCommand } from './modelCommand.ts'
import { runModelWorkerCommand } from './modelWorkerCommand.ts'
import { runAgentCommand } from './agentCommand.ts'
import { runFleetCommand } from './fleetCommand.ts'
import { CHECKPOINT_OPERATIONS, runCheckpointCommand } from './checkpointCommand.ts'
import { runRecordCommand } from './recordCommand.ts'
import { runImportCommand } from './importCommand.ts'
import { unknownNameMessage } from '@cutover/core/contracts'

interface Command {
  /** The overview's second line for the command: its operations or its arguments. */
  readonly operands?: string
  readonly summary: string
  run(argv: readonly string[], io: CliIo): number | Promise<number>
}

/** Every command of the `cutover` CLI (docs/cli.md). */
const COMMANDS: { readonly [name: string]: Command } = {
  serve: { summary: 'serve the API and the inspector (same as npm start)', run: runServeCommand },
  simulate: {
    summary: 'run a scenario to the end, checkpoints committed to real directories',
    run: (argv, io) => runSimulateCommand(argv, io),
  },
  verify: {
    operands: 'verify DIR [--json]',
    summary: 'check a checkpoint directory (manifests, digests, replacement set)',
    run: runVerifyCommand,
  },
  env: {
    operands: 'env blackjack|counter|workplace [options]',
    summary: 'play one Blackjack, counter or Workplace Assistant session',
    run: (argv, io) =>
      runEnvCommand([...argv], { ...io, readFile: (path) => readFileSync(path, 'utf8') }),
  },
  gym: {
    operands: 'gym blackjack|counter|workplace [--port N]',
    summary: 'one environment as a stand-alone NeMo Gym resources server',
    run: runGymCommand,
  },
  model: {
    summary: 'the policy model participant as its own server process',
    run: runModelCommand,
  },
  'model-worker': {
    summary: 'one worker process of cutover model --workers N (started by it)',
    run: runModelWorkerCommand,
  },
  agent: {
    summary: 'the agent participant as its own server process (POST /run)',
    run: runAgentCommand,
  },
  checkpoint: {
    operands: `operations: ${CHECKPOINT_OPERATIONS.join(', ')}`,
    summary: 'one checkpoint operation against every participant of a fleet file',
    run: (argv, io) => runCheckpointCommand(argv, io),
  },
  fleet: {
    summary:
      'the checkpoint cycle across real participant processes, checked against the simulator',
    run: (argv, io) => runFleetCommand(argv, io),
  },
  record: {
    operands: 'record --upstream NAME=URL[,NAME=URL…] [--out FLEET_FILE]',
    summary: "recording proxies in front of participant servers: a controller's cycle as a run",
    run: (argv, io) => runRecordCommand(argv, io),
  },
  import: {
    operands: 'import FILE.jsonl [--json]',
    summary: 'a recording of exchanges (JSON lines) as a stored run of kind "recorded"',
    run: (argv, io) => runImportCommand(argv, io),
  },
  inspect: {
    operands: 'inspect DIR [--port N]',
    summary:
      'open a checkpoint directory in the inspector, read-only (starts the server if needed)',
    run: (argv, io) => runInspectCommand(argv, io),
  },
  diff: {
    operands: 'diff RUN_A RUN_B [--json]',
    summary: 'compare two stored runs to their first divergent event',
    run: (argv, io) => runDiffCommand(argv, io),
  },
  bench: {
    summary: 'measure the performance figures (docs/performance.md)',
    run: (argv, io) => runBenchCommand(argv, io),
  },
}

/** `text` wrapped into lines of at most `width` characters (words are never split). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return [...lines, line]
}

/**
 * The overview's rows in two aligned columns within 100 characters: each command's name, then its
 * summary and, on the next line, its operations or main argument.
 */
function commandRows(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length))
  const indent = ' '.repeat(2 + width + 2)
  return Object.entries(COMMANDS)
    .flatMap(([name, c]) => {
      const text = wrapWords(c.summary, 100 - indent.length)
      if (c.operands !== undefined) text.push(c.operands)
      return text.map((line, i) => (i === 0 ? `  ${name.padEnd(width)}  ${line}` : indent + line))
    })
    .join('\n')
}

/** Every command's name, in the order `--help` lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS)

export const USAGE = `usage: cutover <command> [options]

Commands:
${commandRows()}

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
    io.stderr(`cutover: ${unknownNameMessage('command', name, Object.keys(COMMANDS))}\n`)
    return EXIT.usage
  }
  return await command.run(rest, io)
}

/** Runs the CLI for this process's arguments and sets its exit code (servers keep it alive). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  }
  try {
    process.exitCode = await runCli(argv, io)
  } catch (error) {
    io.stderr(`cutover: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = EXIT.usage
  }
}

const isEntry =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isEntry) await main()
