import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { SimulateOptions, SimulationResult, WorkplaceData } from '@cutover/core'
import {
  BUG_CATALOGUE,
  SCENARIOS,
  checkFaults,
  resolveRunConfig,
  runSimulation,
  verifyCheckpoint,
} from '@cutover/core'
import type {
  BugName,
  CutMode,
  Fault,
  InertFault,
  InvariantFailure,
  RunConfig,
  ScenarioName,
} from '@cutover/core/contracts'
import {
  BUG_NAMES,
  CUT_MODES,
  DEFAULT_CUT_MODE,
  INTEGER_FIELDS,
  INVARIANT_IDS,
  MAX_ROLLOUTS,
  FAULTS_EXAMPLE,
  SCENARIO_NAMES,
  parseFaultsInput,
  seedTextProblem,
  unknownNameMessage,
} from '@cutover/core/contracts'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { resolveDataDir } from '../nodeAppDeps.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'

/** Wraps prose to `width` columns, each line prefixed by `indent`. */
function wrap(text: string, indent: string, width = 100): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(indent + line)
  return lines.join('\n')
}

export const SIMULATE_HELP = `usage: cutover simulate --scenario NAME --seed N [--rollouts N] [--deadline-ms N] [--faults JSON|@FILE]
                        [--cut-mode MODE] [--bug NAME] [--out DIR] [--json]

Runs one scenario of the deterministic simulator to the end, committing every checkpoint into a
real directory under DIR, then verifies each published directory (as \`cutover verify\` does).
The same scenario, seed and options always give the same trace and the same directory bytes.

Options:
  --scenario NAME    one of the scenarios below (required)
  --seed N           a non-negative decimal integer of any size (required; CPython random.Random(N))
  --rollouts N       total rollouts, dealt round-robin to blackjack, counter, workplace
                     (1 to ${MAX_ROLLOUTS}; default: the scenario's, 9)
  --deadline-ms N    the prepare deadline in virtual ms (default: the scenario's, 100)
  --faults JSON      the run's fault schedule, replacing the scenario's: a JSON list of faults
  --faults @FILE     (docs/protocol.md §12.3), inline or read from FILE, e.g.
                     '[{"kind":"straggler","rollout":"r0","extra_ms":400}]'. A fault names a
                     rollout by its id as the run prints it (r0…r8, r00…r89) or by its index; a
                     rollout or worker the run does not have is a usage error. Faults that never
                     fire are listed as inert_faults with the reason.
  --cut-mode MODE    how prepare treats a model call still generating at the deadline:
                     whole-request (the default: wait, then retire the straggler) or
                     generation-safe (cut it at a durable token boundary and continue it under
                     N+1; docs/protocol.md §11). Default: the scenario's (the generation-safe
                     scenarios below use generation-safe). The cut faults constrained_decoding,
                     cut_stage_failure, corrupt_segment and duplicate_cut_claim need generation-safe
  --bug NAME         teaching mode: run with one deliberately broken behaviour (below); the run
                     fails that bug's invariant
  --out DIR          where checkpoint directories go (DIR/<checkpoint id>); must be empty or new.
                     Default: a new folder <data>/simulations/<scenario>-<seed>-<n>, where <data>
                     is CUTOVER_DATA_DIR or .cutover/ in the working directory
  --json             print exactly one JSON object:
                     { "scenario", "seed", "rollouts", "deadline_ms", "cut_mode", "faults", "bug"?, "out", "outcome",
                       "events", "inert_faults": [{ "fault", "reason" }],
                       "checkpoints": [DIR...], "damaged": [DIR...], "invariants": { id: "pass"|"fail" },
                       "failures": [{ "id", "step", "message" }],
                       "invalid": [{ "dir", "code", "path", "message" }] }
                     checkpoints: published directories that verify; damaged: those a fault broke on
                     purpose; invalid: problems of a published, undamaged directory that does not verify
  --help             show this help

Invariants (each reported with its first failing step when it fails):
${wrap(`${INVARIANT_IDS.join(', ')}.`, '  ')}

Exit status: 0 every invariant passed and every undamaged checkpoint verifies; 1 an invariant
failed or a checkpoint directory is invalid; 2 usage error (one line on stderr).

Bugs (--bug NAME):
${BUG_CATALOGUE.map((b) => `  ${b.name} — breaks ${b.invariant}${b.scenarios === undefined ? '' : ` (shows on ${b.scenarios.join(', ')})`}\n${wrap(b.narrative, '      ')}`).join('\n')}

Scenarios:
${SCENARIOS.map((s) => `  ${s.name} — ${s.title}\n${wrap(s.narrative, '      ')}`).join('\n\n')}`

/** Options of one `cutover simulate` invocation, every default resolved. */
interface SimulateArgs {
  readonly config: RunConfig
  readonly out: string | undefined
  readonly json: boolean
}

function parseSimulateArgs(argv: readonly string[]): SimulateArgs {
  const { values, switches } = parseArgs(argv, {
    values: [
      '--scenario',
      '--seed',
      '--rollouts',
      '--deadline-ms',
      '--faults',
      '--cut-mode',
      '--bug',
      '--out',
    ],
    switches: ['--json'],
  })
  const scenario = values.get('--scenario')
  if (scenario === undefined)
    throw new UsageError(`--scenario NAME is required (one of ${SCENARIO_NAMES.join(', ')})`)
  if (!(SCENARIO_NAMES as readonly string[]).includes(scenario))
    throw new UsageError(unknownNameMessage('scenario', scenario, SCENARIO_NAMES))
  const seed = values.get('--seed')
  if (seed === undefined)
    throw new UsageError('--seed N is required (a non-negative decimal integer of any size)')
  // BigInt alone would also take "0x1f" or " 7 "; a seed is plain decimal digits
  // (docs/protocol.md §12.1).
  const seedProblem = seedTextProblem(seed)
  if (seedProblem !== null) throw new UsageError(`--seed ${seedProblem}`)
  const rolloutsText = values.get('--rollouts')
  const deadlineText = values.get('--deadline-ms')
  const out = values.get('--out')
  if (out === '') throw new UsageError('--out needs a directory')
  const faultsText = values.get('--faults')
  const faults = faultsText === undefined ? undefined : parseFaults(faultsText)
  const bug = values.get('--bug')
  if (bug !== undefined && !(BUG_NAMES as readonly string[]).includes(bug))
    throw new UsageError(unknownNameMessage('bug', bug, BUG_NAMES))
  const cutMode = values.get('--cut-mode')
  if (cutMode !== undefined && !(CUT_MODES as readonly string[]).includes(cutMode))
    throw new UsageError(
      `--cut-mode: unknown cut mode '${cutMode}' (one of ${CUT_MODES.join(', ')})`,
    )
  const config = resolveRunConfig({
    scenario: scenario as ScenarioName,
    seed: BigInt(seed).toString(),
    ...(rolloutsText === undefined
      ? {}
      : {
          rollouts: parseIntegerOption(
            '--rollouts',
            rolloutsText,
            INTEGER_FIELDS.rollouts.min,
            INTEGER_FIELDS.rollouts.max,
          ),
        }),
    ...(deadlineText === undefined
      ? {}
      : {
          deadline_ms: parseIntegerOption(
            '--deadline-ms',
            deadlineText,
            INTEGER_FIELDS.deadline_ms.min,
            INTEGER_FIELDS.deadline_ms.max,
          ),
        }),
    ...(faults === undefined ? {} : { faults }),
    ...(bug === undefined ? {} : { bug: bug as BugName }),
    ...(cutMode === undefined ? {} : { cut_mode: cutMode as CutMode }),
  })
  const checked = checkFaults(config, faults ?? [])
  if (!checked.ok)
    throw new UsageError(
      `${faults === undefined ? '--cut-mode' : '--faults'}: ${checked.error.message}`,
    )
  return { config, out, json: switches.has('--json') }
}

/**
 * `--faults JSON` or `--faults @FILE`: a JSON list of faults, checked like the API's run config.
 */
function parseFaults(text: string): Fault[] {
  let source = text
  if (text.startsWith('@')) {
    try {
      source = readFileSync(text.slice(1), 'utf8')
    } catch (error) {
      throw new UsageError(
        `--faults: cannot read ${text.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      )
    }
  }
  if (source.trim() === '')
    throw new UsageError(
      `--faults takes a JSON list of faults (or @FILE holding one), e.g. ${FAULTS_EXAMPLE}`,
    )
  const parsed = parseFaultsInput(source)
  if (!parsed.ok) throw new UsageError(`--faults: ${parsed.errors.join('; ')}`)
  return parsed.faults ?? []
}

/** A seed short enough for a folder name: long seeds keep their first digits and their length. */
const seedLabel = (seed: string): string =>
  seed.length <= 40 ? seed : `${seed.slice(0, 24)}-${seed.length}digits`

/** Creates the output folder: DIR when given (new or empty), else the next free default folder. */
function prepareOut(out: string | undefined, config: RunConfig, dataDir: string): string {
  if (out !== undefined) {
    const root = resolve(out)
    if (existsSync(root)) {
      if (!statSync(root).isDirectory()) throw new UsageError(`--out ${root} is not a directory`)
      // Checkpoint namespaces are immutable: an old run's files would make this run's commits fail.
      if (readdirSync(root).length > 0)
        throw new UsageError(`--out ${root} is not empty (choose a new or empty folder)`)
    } else mkdirSync(root, { recursive: true })
    return root
  }
  const parent = join(dataDir, 'simulations')
  mkdirSync(parent, { recursive: true })
  for (let n = 1; ; n++) {
    const candidate = join(parent, `${config.scenario}-${seedLabel(config.seed)}-${n}`)
    try {
      // Non-recursive: EEXIST means another run took this name; try the next.
      mkdirSync(candidate)
      return candidate
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

/** A directory problem of a published checkpoint that no fault damaged. */
interface InvalidCheckpoint {
  readonly dir: string
  readonly code: string
  readonly path: string | null
  readonly message: string
}

/**
 * The JSON `cutover simulate --json` prints (docs/cli.md, plus deadline_ms, out, failures,
 * invalid).
 */
export interface SimulateReport {
  readonly scenario: ScenarioName
  readonly seed: string
  readonly rollouts: number
  readonly deadline_ms: number
  readonly cut_mode: CutMode
  readonly faults: readonly Fault[]
  readonly bug?: BugName
  readonly inert_faults: readonly InertFault[]
  readonly out: string
  readonly outcome: 'completed' | 'aborted'
  readonly events: number
  readonly checkpoints: readonly string[]
  readonly damaged: readonly string[]
  readonly invariants: SimulationResult['invariants']
  readonly failures: readonly InvariantFailure[]
  readonly invalid: readonly InvalidCheckpoint[]
}

/**
 * Sorts a run's published checkpoints into valid, damaged (by a fault, on purpose) and invalid (an
 * undamaged directory that does not verify from disk: a failure) by re-verifying each one.
 */
export function classifyCheckpoints(
  published: SimulationResult['checkpoints'],
): Pick<SimulateReport, 'checkpoints' | 'damaged' | 'invalid'> {
  const checkpoints: string[] = []
  const damaged: string[] = []
  const invalid: InvalidCheckpoint[] = []
  for (const c of published) {
    const dir = resolve(c.location)
    if (c.damaged) {
      damaged.push(dir)
      continue
    }
    const report = verifyCheckpoint(new NodeCheckpointDirectory(dir, { create: false }), nodeDigest)
    if (report.valid) checkpoints.push(dir)
    else
      for (const p of report.problems)
        invalid.push({ dir, code: p.code, path: p.path, message: p.message })
  }
  return { checkpoints, damaged, invalid }
}

function humanSummary(r: SimulateReport): string {
  const lines = [
    `scenario ${r.scenario}, seed ${r.seed}, ${r.rollouts} rollouts, deadline ${r.deadline_ms} ms, cut mode ${r.cut_mode}`,
    ...(r.bug === undefined
      ? []
      : [
          `teaching mode: bug ${r.bug} (expected to break ${BUG_CATALOGUE.find((b) => b.name === r.bug)?.invariant ?? '?'})`,
        ]),
    `faults: ${r.faults.length === 0 ? 'none' : JSON.stringify(r.faults)}`,
    ...r.inert_faults.map((f) => `  inert fault ${JSON.stringify(f.fault)} — ${f.reason}`),
    `outcome: ${r.outcome} after ${r.events} events`,
    `output: ${r.out}`,
    `checkpoints (${r.checkpoints.length} valid):`,
    ...(r.checkpoints.length === 0 ? ['  none'] : r.checkpoints.map((d) => `  ${d}`)),
  ]
  if (r.damaged.length > 0)
    lines.push(
      `damaged on purpose by a fault (${r.damaged.length}):`,
      ...r.damaged.map((d) => `  ${d}`),
    )
  if (r.invalid.length > 0) {
    lines.push(`INVALID checkpoint directories (published, not damaged by a fault):`)
    for (const p of r.invalid) lines.push(`  ${p.dir}: ${p.code} ${p.path ?? '-'}  ${p.message}`)
  }
  lines.push('invariants:')
  for (const id of Object.keys(r.invariants) as (keyof typeof r.invariants)[]) {
    const failure = r.failures.find((f) => f.id === id)
    lines.push(
      failure === undefined
        ? `  pass  ${id}`
        : `  FAIL  ${id} — first failing step ${failure.step}: ${failure.message}`,
    )
  }
  const failed = r.failures.length > 0 || r.invalid.length > 0
  lines.push(
    failed ? 'result: FAILED' : 'result: all invariants pass, every undamaged checkpoint verifies',
  )
  return lines.join('\n')
}

/**
 * Seams for tests: the data directory, the Workplace data loader, deliberately broken participants.
 */
export interface SimulateCommandOptions {
  readonly dataDir?: string
  readonly loadWorkplace?: () => WorkplaceData
  readonly simulateOptions?: SimulateOptions
  /** Sees the finished simulation (tests compare its trace). */
  readonly onResult?: (result: SimulationResult) => void
}

/**
 * `cutover simulate --scenario NAME --seed N [--rollouts N] [--deadline-ms N] [--out DIR] [--json]`
 * (docs/cli.md). `argv` holds the arguments after `simulate`.
 */
export function runSimulateCommand(
  argv: readonly string[],
  io: CliIo,
  options: SimulateCommandOptions = {},
): number {
  if (wantsHelp(argv)) {
    io.stdout(`${SIMULATE_HELP}\n`)
    return EXIT.ok
  }
  let args: SimulateArgs
  let out: string
  try {
    args = parseSimulateArgs(argv)
    out = prepareOut(args.out, args.config, options.dataDir ?? resolveDataDir())
  } catch (error) {
    const message =
      error instanceof UsageError
        ? error.message
        : `cannot create the output folder: ${(error as Error).message}`
    io.stderr(`cutover simulate: ${message}\n`)
    return EXIT.usage
  }
  const { config } = args
  const workplace = (options.loadWorkplace ?? loadNodeWorkplaceData)()
  const result = runSimulation(
    config,
    {
      digest: nodeDigest,
      workplace,
      openDirectory: (checkpointId) => {
        // Ids come from the simulator (`ck-1`); refuse anything that could leave `out`.
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(checkpointId))
          throw new Error(`unsafe checkpoint id ${JSON.stringify(checkpointId)}`)
        return new NodeCheckpointDirectory(join(out, checkpointId))
      },
    },
    options.simulateOptions,
  )
  options.onResult?.(result)
  const sorted = classifyCheckpoints(result.checkpoints)
  const report: SimulateReport = {
    scenario: config.scenario,
    seed: config.seed,
    rollouts: config.rollouts,
    deadline_ms: config.deadline_ms,
    cut_mode: config.cut_mode ?? DEFAULT_CUT_MODE,
    faults: config.faults,
    ...(config.bug === undefined ? {} : { bug: config.bug }),
    inert_faults: result.inert_faults,
    out,
    outcome: result.outcome,
    events: result.events.length,
    checkpoints: sorted.checkpoints,
    damaged: sorted.damaged,
    invariants: result.invariants,
    failures: result.failures,
    invalid: sorted.invalid,
  }
  io.stdout(args.json ? `${JSON.stringify(report)}\n` : `${humanSummary(report)}\n`)
  return report.failures.length > 0 ||
    report.invalid.length > 0 ||
    Object.values(report.invariants).includes('fail')
    ? EXIT.failure
    : EXIT.ok
}
