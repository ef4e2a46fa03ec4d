import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { resolveRunConfig } from '@cutover/core'
import type { InvariantFailure, RunView, ScenarioName, TraceEvent } from '@cutover/core/contracts'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { traceInvariants } from '../fleet/fleetTraceResult.ts'
import { createRunIdSource } from '../runs/runIds.ts'
import { traceJson } from '../runs/traceJson.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import type { FleetScenario } from '../fleet/runFleet.ts'
import { FLEET_SCENARIOS, runFleet } from '../fleet/runFleet.ts'
import { processAlive } from '../participants/processAlive.ts'
import { simulatorResultDigests } from '../fleet/simulatorResultDigests.ts'
import { resolveDataDir } from '../nodeAppDeps.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'

/**
 * The presets' deadlines are virtual milliseconds; across processes the prepare deadline is at
 * least this much wall-clock time.
 */
const WALL_DEADLINE_MS = 1500
/**
 * two-worker-admission: long enough for a replacement worker process to boot and be refused while
 * admission is closed, before the deadline's missing_workers aborts the first checkpoint.
 */
const TWO_WORKER_DEADLINE_MS = 8000

export const FLEET_HELP = `usage: cutover fleet --scenario NAME --seed N [--rollouts N] [--out DIR] [--json]

Starts every participant as its own OS process on free loopback ports (cutover model, cutover
agent, cutover gym blackjack|counter|workplace; the control token is generated and never printed),
dispatches the rollouts through the agent's POST /run, takes checkpoint ck-1 with the HTTP
controller, kills the original processes once it is published, starts replacements with
--restore-expected, restores, resumes, runs the continued and retired rollouts to their end,
verifies the directory and checks every rollout's result against the simulator's run of the same
seed (equivalence). Every process records the messages it sends; they are merged into one trace,
checked by the invariants and stored as a run of kind "fleet" (runs/<id>/ in the data directory:
run.json, trace.json, the checkpoint under checkpoints/, each process's records under wire/), which
cutover serve lists and opens like a simulated run.

Scenarios across processes:
  happy-path            the cycle as above
  straggler-retirement  a generation slow past the deadline is aborted and retired over HTTP
  stale-attempt-fenced  after resume, delayed requests of attempt N reach the restored model,
                        agent and resources server; each must refuse stale_attempt
  corrupt-snapshot      a resources snapshot byte flips after commit: the restore is abandoned,
                        the fresh processes discarded, the originals resume, ck-2 restores cleanly
  two-worker-admission  the model runs two worker processes; worker 1 hangs (never acknowledges
                        the close): missing_workers aborts ck-1, its replacement is refused while
                        admission is closed, joins after, and ck-2 completes
The other scenarios are simulator-only (use cutover simulate). --out DIR (new or empty) is the data
directory to store the run in; default the data directory (CUTOVER_DATA_DIR or .cutover/). Exit 0
when the cycle completed, the directory verified, every invariant passed, every rollout matched and
the scenario's refusals happened; 1 otherwise; 2 for usage errors.`

interface FleetArgs {
  readonly scenario: FleetScenario
  readonly seed: string
  readonly rollouts: number
  readonly out: string | undefined
  readonly json: boolean
}

function parseFleetArgs(argv: readonly string[]): FleetArgs {
  const { values, switches } = parseArgs(argv, {
    values: ['--scenario', '--seed', '--rollouts', '--out'],
    switches: ['--json'],
  })
  const scenario = values.get('--scenario')
  if (scenario === undefined)
    throw new UsageError(`--scenario NAME is required (one of ${FLEET_SCENARIOS.join(', ')})`)
  if (!(FLEET_SCENARIOS as readonly string[]).includes(scenario)) {
    throw new UsageError(
      `scenario '${scenario}' is simulator-only so far (cutover fleet runs ${FLEET_SCENARIOS.join(', ')}; use cutover simulate for the others)`,
    )
  }
  const seed = values.get('--seed')
  if (seed === undefined)
    throw new UsageError('--seed N is required (a non-negative decimal integer)')
  if (!/^[0-9]{1,40}$/.test(seed))
    throw new UsageError(
      `--seed takes a non-negative decimal integer of at most 40 digits, got '${seed}'`,
    )
  const rolloutsText = values.get('--rollouts')
  const out = values.get('--out')
  if (out === '') throw new UsageError('--out needs a directory')
  return {
    scenario: scenario as FleetScenario,
    seed: BigInt(seed).toString(),
    rollouts:
      rolloutsText === undefined ? 9 : parseIntegerOption('--rollouts', rolloutsText, 1, 1000),
    out,
    json: switches.has('--json'),
  }
}

/**
 * The data directory the run is stored in: `--out` (new or empty) or the data directory the API
 * lists.
 */
function prepareOut(args: FleetArgs): string {
  const root = args.out !== undefined ? resolve(args.out) : resolveDataDir()
  if (args.out !== undefined && existsSync(root) && readdirSync(root).length > 0)
    throw new UsageError(`--out ${root} is not empty (choose a new or empty folder)`)
  mkdirSync(root, { recursive: true })
  return realpathSync(root)
}

/** `cutover fleet`: the whole checkpoint cycle across real processes (docs/fleet.md). */
export async function runFleetCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout(`${FLEET_HELP}\n`)
    return EXIT.ok
  }
  let args: FleetArgs
  let out: string
  try {
    args = parseFleetArgs(argv)
    out = prepareOut(args)
  } catch (error) {
    io.stderr(`cutover fleet: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.usage
  }
  const config = resolveRunConfig({
    scenario: args.scenario as ScenarioName,
    seed: args.seed,
    rollouts: args.rollouts,
  })
  // The run's folder in the data directory: its run.json and trace.json as for a simulated run, the
  // participants' data directory (so the checkpoint lands in runs/<id>/checkpoints/ck-1) and each
  // process's wire records.
  const store = createFileRunStore(
    out,
    (path, create) => new NodeCheckpointDirectory(path, { create }),
  )
  const createdAt = Date.now()
  const runId = createRunIdSource().next(createdAt, (id) => existsSync(join(out, 'runs', id)))
  const runDir = join(out, 'runs', runId)
  const dataDir = join(runDir, 'checkpoints')
  const traceDir = join(runDir, 'wire')
  mkdirSync(dataDir, { recursive: true })
  mkdirSync(traceDir, { recursive: true })
  const deadlineMs = Math.max(
    config.deadline_ms,
    args.scenario === 'two-worker-admission' ? TWO_WORKER_DEADLINE_MS : WALL_DEADLINE_MS,
  )
  const running: ParticipantProcess[] = []
  /** Every process the run listed (model workers included): none may outlive this command. */
  let listed: readonly number[] = []
  const stopAll = async (): Promise<void> => {
    await Promise.all(running.map((p) => p.stop()))
  }
  const onSignal = (): void => {
    void stopAll().then(() => process.exit(130))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const run = await runFleet(
      {
        scenario: args.scenario,
        seed: BigInt(args.seed),
        rollouts: args.rollouts,
        dataDir,
        traceDir,
        deadlineMs,
        checkpointId: 'ck-1',
      },
      running,
    )
    listed = run.processes.map((p) => p.pid)
    const reference = simulatorResultDigests(config)
    const mismatches = run.rollouts
      .filter((r) => reference.get(r.rollout_id)?.result_digest !== r.result_digest)
      .map((r) => r.rollout_id)
    const trace = run.trace as unknown as readonly TraceEvent[]
    const equivalence: InvariantFailure[] =
      mismatches.length === 0
        ? []
        : [
            {
              id: 'equivalence',
              step: trace.length,
              message: `rollouts ${mismatches.join(', ')} ended differently than in the simulator's run of the same seed`,
            },
          ]
    const { invariants, failures } = traceInvariants(trace, trace.length, equivalence)
    const view: RunView = {
      id: runId,
      kind: 'fleet',
      scenario: args.scenario,
      seed: args.seed,
      rollouts: args.rollouts,
      deadline_ms: deadlineMs,
      faults: [],
      inert_faults: [],
      status: 'complete',
      created_at: new Date(createdAt).toISOString(),
      events: trace.length,
      outcome: run.outcome === 'completed' ? 'completed' : 'aborted',
      checkpoints: run.verified ? [store.relativePath(run.directory)] : [],
      damaged: [],
      invariants,
      failures,
      processes: run.processes,
    }
    // The trace lands before run.json, so a stored run always has its trace.
    store.writeTrace(runId, await traceJson(trace))
    store.writeRun(view)
    const report = {
      scenario: args.scenario,
      seed: args.seed,
      rollouts: args.rollouts,
      deadline_ms: deadlineMs,
      faults: [],
      inert_faults: [],
      out,
      outcome: view.outcome,
      reason: run.reason,
      events: trace.length,
      checkpoints: run.verified ? [run.directory] : [],
      damaged: [],
      invariants,
      failures,
      invalid: run.problems.map((problem) => ({ dir: run.directory, message: problem })),
      verified: run.verified,
      retired: run.retired,
      continued: run.continued,
      notes: run.notes,
      scenario_problems: run.scenario_problems,
      equivalence: {
        checked: run.rollouts.length,
        matching: run.rollouts.length - mismatches.length,
        mismatches,
      },
      originals_gone: run.originals_gone,
      run_id: runId,
      kind: 'fleet',
      processes: run.processes,
      control_calls: run.control_calls.length,
      wall_ms: run.wall_ms,
    }
    const passed =
      run.outcome === 'completed' &&
      run.verified &&
      failures.length === 0 &&
      run.originals_gone &&
      run.scenario_problems.length === 0
    if (args.json) io.stdout(`${JSON.stringify(report)}\n`)
    else {
      io.stdout(
        [
          `cutover fleet ${args.scenario} seed ${args.seed}: ${args.rollouts} rollouts across ${run.processes.length} processes in ${(run.wall_ms / 1000).toFixed(1)} s`,
          `checkpoint ${run.checkpoint_id}: ${run.outcome}${run.reason === null ? '' : ` (${run.reason})`}, directory ${run.verified ? 'verified' : 'NOT verified'} at ${run.directory}`,
          `retired ${run.retired.length} (${run.retired.join(', ') || '—'}), continued ${run.continued.length}; equivalence ${report.equivalence.matching}/${report.equivalence.checked}${mismatches.length > 0 ? ` (differ: ${mismatches.join(', ')})` : ''}`,
          `invariants: ${failures.length === 0 ? `all ${Object.keys(invariants).length} pass` : failures.map((f) => `${f.id} FAILS at step ${f.step}: ${f.message}`).join('; ')} over ${trace.length} recorded messages`,
          `run ${runId} (recorded from processes): open it with cutover serve at /runs/${runId}`,
          ...run.notes.map((n) => `  ${n}`),
          ...run.scenario_problems.map((n) => `  PROBLEM: ${n}`),
          ...run.processes.map(
            (p) => `  ${p.role.padEnd(11)} ${p.participant.padEnd(20)} pid ${p.pid} port ${p.port}`,
          ),
          `originals ${run.originals_gone ? 'gone' : 'STILL RUNNING'}; ${passed ? 'PASS' : 'FAIL'}`,
        ].join('\n') + '\n',
      )
    }
    return passed ? EXIT.ok : EXIT.failure
  } catch (error) {
    io.stderr(`cutover fleet: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.failure
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await stopAll()
    // A model's worker processes leave a moment after their coordinator (its socket closes).
    for (let waited = 0; waited < 10_000 && listed.some(processAlive); waited += 50)
      await new Promise((r) => setTimeout(r, 50))
  }
}
