import { checkpointRootsFromEnv } from '../control/checkpointRootsFromEnv.ts'
import type { CheckpointPlace } from '../control/openCheckpointDir.ts'
import { resolveDataDir } from '../nodeAppDeps.ts'
import type { Clock } from '@cutover/core'
import { clockFromEnv } from '../participants/clockFromEnv.ts'
import { controlTokenFromEnv } from '../participants/controlTokenFromEnv.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { wantsHelp } from './parseArgs.ts'

/**
 * The start every participant command (`cutover model`, `agent`, `gym`) shares: `--help` prints
 * `help` (exit 0); a usage error is one line on stderr (exit 2); `--restore-expected` needs
 * `CUTOVER_CONTROL_TOKEN`, since the restore comes through the control routes. Otherwise the parsed
 * arguments, the token (undefined: no control routes) and where checkpoints may be opened: the data
 * directory and `CUTOVER_CHECKPOINT_ROOTS` (a relative root is a usage error, exit 2), and the
 * clock deadlines are compared with (`CUTOVER_CLOCK_OFFSET_MS`).
 */
export function readParticipantArgs<A extends { readonly restoreExpected: boolean }>(
  command: string,
  argv: readonly string[],
  io: CliIo,
  help: string,
  parse: (argv: readonly string[]) => A,
):
  | {
      readonly args: A
      readonly controlToken: string | undefined
      readonly place: Required<CheckpointPlace>
      readonly clock: Clock
    }
  | number {
  if (wantsHelp(argv)) {
    io.stdout(`${help}\n`)
    return EXIT.ok
  }
  let args: A
  let place: Required<CheckpointPlace>
  let clock: Clock
  try {
    args = parse(argv)
    const dataDir = resolveDataDir()
    place = { dataDir, checkpointRoots: checkpointRootsFromEnv(dataDir) }
    clock = clockFromEnv()
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`cutover ${command}: ${error.message}\n`)
    return EXIT.usage
  }
  const controlToken = controlTokenFromEnv()
  if (args.restoreExpected && controlToken === undefined) {
    io.stderr(
      `cutover ${command}: --restore-expected needs CUTOVER_CONTROL_TOKEN (restore comes through the control routes)\n`,
    )
    return EXIT.usage
  }
  return { args, controlToken, place, clock }
}
