import { performance } from 'node:perf_hooks'
import type { JsonValue, WorkplaceData } from '@cutover/core'
import {
  canonicalJson,
  createWorkplaceCodec,
  parseWorkplaceBase,
  replayActions,
} from '@cutover/core'
import { nodeDigest } from '@cutover/core/adapters'
import { simulationHeapLimitMb } from '../runs/simulationHeapLimitMb.ts'
import type { FloorRunFigures } from './benchSimulationWorker.ts'
import type { BenchRunFigures } from './measureSimulationRun.ts'
import { runBenchSimulations } from './runBenchSimulations.ts'

/** What to measure and with how much effort. */
export interface BenchOptions {
  /** Rollouts of each simulated run (mixed round-robin over blackjack, counter, workplace). */
  readonly rollouts: number
  readonly workplace: WorkplaceData
  /** Seed of the happy-path runs (decimal text). */
  readonly seed?: string
  /** Minimum wall time of each repeated micro-measurement (Workplace codec loops). */
  readonly minMeasureMs?: number
  /** Size of the SHA-256 buffer (64 MiB by default, as docs/performance.md asks). */
  readonly sha256Bytes?: number
  /** Where the real-FS run's temp folder is made (removed afterwards). */
  readonly tempRoot?: string
  /** Progress lines for people (never part of the figures). */
  readonly progress?: (line: string) => void
}

/**
 * The figures of `cutover bench` (docs/cli.md: the first seven names are fixed). Wall-clock
 * figures: a benchmark of this machine, never part of a trace or a test assertion.
 */
export interface BenchFigures {
  readonly rollouts: number
  /**
   * prepare → commit to disk → restore → resume window of a real-FS happy-path run, plus verifying
   * its directory. Null when no checkpoint happened.
   */
  readonly cycle_ms: number | null
  /**
   * The same cycle in `cut_mode: "generation-safe"` (the generation-safe-cut scenario: its
   * straggler is cut and continued), same size.
   */
  readonly cycle_ms_generation_safe: number | null
  /** Wall ms per cycle phase of the generation-safe run (as `cycle_phases_ms`). */
  readonly cycle_phases_ms_generation_safe: { readonly [phase: string]: number }
  /**
   * Trace events per second of a whole happy-path simulation (in-memory directories, equivalence
   * check included).
   */
  readonly events_per_s: number
  /**
   * Workplace sessions exported + JSON round-tripped + restored per second (delta codec,
   * ground-truth sessions).
   */
  readonly workplace_sessions_per_s: number
  /** Median JSON bytes of the delta state over the example tasks' ground-truth sessions. */
  readonly workplace_snapshot_bytes_median: number
  /** Median JSON bytes of the full-table state over the same sessions. */
  readonly workplace_full_bytes_median: number
  /**
   * The physical floor of the happy-path checkpoint (`cycle_ms`'s): the same files with the same
   * sizes, written with the same durability steps and nothing else, median of the runs in
   * `fs_floor_ms_runs`. Null when no checkpoint happened.
   */
  readonly fs_floor_ms: number | null
  /** `cycle_ms / fs_floor_ms` (two decimals). */
  readonly cycle_over_floor: number | null
  /** Each floor run in turn (one after each simulation, so disk noise hits floor and cycle). */
  readonly fs_floor_ms_runs: readonly number[]
  /** Files and bytes the floor wrote, and whether they were exactly the checkpoint's. */
  readonly fs_floor_files: number
  readonly fs_floor_bytes: number
  readonly fs_floor_matches_checkpoint: boolean
  /** SHA-256 throughput in MiB/s over one buffer through the `nodeDigest` port. */
  readonly sha256_mb_per_s: number
  /** The longest single simulator step (one `next()` of the generator) of the in-memory run. */
  readonly max_step_ms: number
  /** The event that step produced (`<step> <type> <path or rollout>`), to find it in the trace. */
  readonly max_step_event: string
  /**
   * Peak resident set size of this process over the whole bench (each simulation in its worker, in
   * turn).
   */
  readonly peak_rss_mb: number
  /**
   * The old-space budget each simulation's worker ran with (`simulationHeapLimitMb`, as the
   * server's).
   */
  readonly heap_limit_mb: number
  /** The largest V8 heap any of the three simulations used (sampled every 5,000 events). */
  readonly heap_used_max_mb: number
  readonly scenario: 'happy-path'
  readonly seed: string
  /**
   * Wall ms spent in each cycle phase inside the window (events attributed to the phase they
   * carry).
   */
  readonly cycle_phases_ms: { readonly [phase: string]: number }
  /** The prepare → last resume event window alone. */
  readonly cycle_window_ms: number | null
  /** `verifyCheckpoint` of every published directory, from disk. */
  readonly cycle_verify_ms: number
  /** Published checkpoint directories of the real-FS run, and whether every one verifies. */
  readonly cycle_checkpoints: number
  readonly cycle_directories_valid: boolean
  readonly cycle_files_written: number
  readonly cycle_bytes_written: number
  /** The whole real-FS run (run, cycle, continue, equivalence check). */
  readonly cycle_run_ms: number
  readonly cycle_run_invariants_pass: boolean
  readonly events: number
  /** The whole in-memory simulation, equivalence baseline included. */
  readonly simulate_ms: number
  /**
   * Events per second of trace generation alone (up to the last event, before the equivalence
   * baseline).
   */
  readonly trace_events_per_s: number
  readonly workplace_snapshot_bytes: readonly number[]
  readonly workplace_full_bytes: readonly number[]
  /** The same round trip through the full-table form, for comparison. */
  readonly workplace_full_sessions_per_s: number
  readonly sha256_bytes: number
  /** What each figure includes. */
  readonly notes: readonly string[]
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  if (s.length === 0) return 0
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** Floor runs per bench: one after each of the three simulations. */
const FLOOR_RUNS = 3

const round1 = (x: number): number => Math.round(x * 10) / 10

/** Export → JSON text → parse → restore, over `sessions`, repeated for at least `minMs`. */
function codecThroughput(
  codec: ReturnType<typeof createWorkplaceCodec>,
  sessions: readonly Parameters<ReturnType<typeof createWorkplaceCodec>['exportState']>[0][],
  minMs: number,
): number {
  let count = 0
  const started = performance.now()
  let elapsed = 0
  do {
    for (const session of sessions) {
      const state = codec.exportState(session)
      if (!state.ok) throw new Error(state.error.message)
      const restored = codec.restoreState(JSON.parse(JSON.stringify(state.value)) as JsonValue)
      if (!restored.ok) throw new Error(restored.error.message)
      count++
    }
    elapsed = performance.now() - started
  } while (elapsed < minMs)
  return count / (elapsed / 1000)
}

/** Snapshot sizes and export + restore throughput of the Workplace codec (delta vs full form). */
function measureWorkplace(data: WorkplaceData, minMs: number) {
  const base = parseWorkplaceBase(data, nodeDigest)
  // The session each example task's ground-truth calls leave: what a perfect rollout would
  // snapshot.
  const sessions = base.examples.map((e) => replayActions(base, e.ground_truth))
  const delta = createWorkplaceCodec(base)
  const full = createWorkplaceCodec(base, { form: 'full' })
  const sizes = (codec: typeof delta) =>
    sessions.map((s) => {
      const state = codec.exportState(s)
      if (!state.ok) throw new Error(state.error.message)
      // A restore must give back the same session: re-exporting it yields the same bytes.
      const again = codec.restoreState(state.value)
      if (!again.ok) throw new Error(again.error.message)
      const reexported = codec.exportState(again.value)
      if (!reexported.ok || canonicalJson(reexported.value) !== canonicalJson(state.value))
        throw new Error('Workplace codec round trip changed the state')
      return Buffer.byteLength(JSON.stringify(state.value))
    })
  const deltaBytes = sizes(delta)
  const fullBytes = sizes(full)
  return {
    deltaBytes,
    fullBytes,
    deltaPerS: codecThroughput(delta, sessions, minMs),
    fullPerS: codecThroughput(full, sessions, minMs),
    tasks: sessions.length,
  }
}

/** SHA-256 MiB/s through the digest port: the median of three passes over one buffer. */
function measureSha256(size: number): number {
  const buffer = new Uint8Array(size)
  for (let i = 0; i < size; i++) buffer[i] = (i * 131 + (i >>> 11)) & 0xff
  const times: number[] = []
  for (let pass = 0; pass < 3; pass++) {
    const t0 = performance.now()
    nodeDigest.sha256Hex(buffer)
    times.push(performance.now() - t0)
  }
  return size / 2 ** 20 / (median(times) / 1000)
}

/**
 * Runs every measurement of `cutover bench`. Slow by design at 1,000 rollouts (three simulations,
 * one after the other in a worker thread with the heap budget the server gives a run of that size).
 */
export async function measureBench(options: BenchOptions): Promise<BenchFigures> {
  const seed = options.seed ?? '0'
  const minMs = options.minMeasureMs ?? 1000
  const sha256Bytes = options.sha256Bytes ?? 64 * 2 ** 20
  const progress = options.progress ?? (() => undefined)
  const { rollouts, tempRoot, workplace } = options

  const floorLabel = (n: number) =>
    `file-system floor of that checkpoint (${n} of ${FLOOR_RUNS}): its files, bare durability steps…`
  const labels = [
    `checkpoint cycle: happy-path, ${rollouts} rollouts, real file system…`,
    floorLabel(1),
    `checkpoint cycle, generation-safe: generation-safe-cut, ${rollouts} rollouts, real file system…`,
    floorLabel(2),
    'simulator throughput: the same run with in-memory directories…',
    floorLabel(3),
  ]
  // Each simulation in a worker thread of its own, as the server runs each run (the same heap
  // budget, nothing left by an earlier run); each floor run follows a simulation in its worker, so
  // the floor and the cycles share the disk's minutes.
  const [cycle, floor1] = (await runBenchSimulations(
    [
      { kind: 'cycle', rollouts, seed, cutMode: 'whole-request', tempRoot },
      { kind: 'floor', of: 0, tempRoot },
    ],
    workplace,
    (i) => progress(labels[i] ?? ''),
  )) as readonly [BenchRunFigures, FloorRunFigures]
  const layout = cycle.layout
  if (layout === undefined) throw new Error('the real-FS cycle run returned no checkpoint layout')
  const floor = { kind: 'floor', layout, tempRoot } as const
  const [cut, floor2] = (await runBenchSimulations(
    [{ kind: 'cycle', rollouts, seed, cutMode: 'generation-safe', tempRoot }, floor],
    workplace,
    (i) => progress(labels[2 + i] ?? ''),
  )) as readonly [BenchRunFigures, FloorRunFigures]
  const [mem, floor3] = (await runBenchSimulations(
    [{ kind: 'memory', rollouts, seed }, floor],
    workplace,
    (i) => progress(labels[4 + i] ?? ''),
  )) as readonly [BenchRunFigures, FloorRunFigures]
  const floors = [floor1, floor2, floor3]
  const cutMs = cut.windowMs === null ? null : Math.round(cut.windowMs + cut.verifyMs)
  const events = mem.events
  progress('Workplace codec: snapshot sizes and export + restore throughput…')
  const wp = measureWorkplace(workplace, minMs)
  progress(`SHA-256 over ${sha256Bytes} bytes…`)
  const sha = measureSha256(sha256Bytes)

  const cycleMs = cycle.windowMs === null ? null : cycle.windowMs + cycle.verifyMs
  const floorMs = cycle.checkpoints === 0 ? null : median(floors.map((f) => f.ms))
  return {
    rollouts: options.rollouts,
    cycle_ms: cycleMs === null ? null : Math.round(cycleMs),
    cycle_ms_generation_safe: cutMs,
    cycle_phases_ms_generation_safe: Object.fromEntries(
      Object.entries(cut.phaseMs).map(([k, v]) => [k, Math.round(v)]),
    ),
    events_per_s: Math.round(events / (mem.totalMs / 1000)),
    workplace_sessions_per_s: Math.round(wp.deltaPerS),
    workplace_snapshot_bytes_median: median(wp.deltaBytes),
    workplace_full_bytes_median: median(wp.fullBytes),
    fs_floor_ms: floorMs === null ? null : Math.round(floorMs),
    cycle_over_floor:
      floorMs === null || cycleMs === null || floorMs === 0
        ? null
        : Math.round((Math.round(cycleMs) / Math.round(floorMs)) * 100) / 100,
    fs_floor_ms_runs: floors.map((f) => Math.round(f.ms)),
    fs_floor_files: floor1.files,
    fs_floor_bytes: floor1.bytes,
    fs_floor_matches_checkpoint: floors.every((f) => f.sameFiles),
    sha256_mb_per_s: round1(sha),
    max_step_ms: round1(mem.maxStepMs),
    max_step_event: mem.maxStepEvent,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    heap_limit_mb: simulationHeapLimitMb(rollouts),
    heap_used_max_mb: Math.max(cycle.heapUsedMaxMb, cut.heapUsedMaxMb, mem.heapUsedMaxMb),
    scenario: 'happy-path',
    seed,
    cycle_phases_ms: Object.fromEntries(
      Object.entries(cycle.phaseMs).map(([k, v]) => [k, Math.round(v)]),
    ),
    cycle_window_ms: cycle.windowMs === null ? null : Math.round(cycle.windowMs),
    cycle_verify_ms: Math.round(cycle.verifyMs),
    cycle_checkpoints: cycle.checkpoints,
    cycle_directories_valid: cycle.valid,
    cycle_files_written: cycle.files,
    cycle_bytes_written: cycle.bytes,
    cycle_run_ms: Math.round(cycle.totalMs),
    cycle_run_invariants_pass: cycle.invariantsPass && cut.invariantsPass,
    events,
    simulate_ms: Math.round(mem.totalMs),
    trace_events_per_s: Math.round(events / (mem.lastEventMs / 1000)),
    workplace_snapshot_bytes: wp.deltaBytes,
    workplace_full_bytes: wp.fullBytes,
    workplace_full_sessions_per_s: Math.round(wp.fullPerS),
    sha256_bytes: sha256Bytes,
    notes: [
      `cycle_ms: the simulator has no cycle hook, so a real-FS happy-path run (seed ${seed}) is streamed and timed from the first non-'run' event to the last 'resume' event (prepare with the fleet draining, retire, commit with atomic writes made durable in one syncfs per sync() batch, renames, and one fsync per touched folder, restore in fresh processes with every digest checked before activation, resume), plus verifyCheckpoint of each published directory from disk (cycle_verify_ms); the rest of the run (cycle_run_ms) is excluded. Rollout traffic that happens inside the window (draining in prepare) is included.`,
      `fs_floor_ms: what the disk itself needs for cycle_ms's checkpoint, measured in the same worker thread: the files of its checkpoint directory as written (${floor1.files} files, ${floor1.bytes} B, read from disk), written again with the same sizes into a fresh folder on the same file system, in the same sync() batches and with the steps NodeCheckpointDirectory takes (per file: a temp file created O_EXCL beside its target, missing folders made; per batch: one syncfs, or an fdatasync per file for batches of one or two, then each rename, then one fsync per touched folder) and nothing else (no encoding, hashing, validation, reads or restore). Median of ${FLOOR_RUNS} runs, one after each simulation in its worker (fs_floor_ms_runs); every temp folder's removal is flushed (syncfs) before the next timed measurement, so neither the cycles nor the floor pay for an earlier removal. cycle_over_floor = cycle_ms / fs_floor_ms.`,
      `cycle_ms_generation_safe: the same window and verify over a real-FS run of the generation-safe-cut scenario (seed ${seed}, ${options.rollouts} rollouts, cut_mode generation-safe): rollout r0's call is still generating at the deadline, so the model cuts it at a durable token boundary (inventory, buffer swap, segment staged, cut proof), the segment is written under token-store/segments/ and verified, restore verifies it before activation, and r0 continues from the prefix under N+1 instead of being retired.`,
      'events_per_s: events of one whole happy-path simulation with in-memory directories divided by its wall time, including the invariant checker and the equivalence baseline run; trace_events_per_s excludes the baseline.',
      `workplace_*: the ${wp.tasks} example tasks' ground-truth calls replayed on fresh sessions; sizes are UTF-8 bytes of JSON.stringify(state) (delta form vs full-table form); sessions/s is exportState → JSON.stringify → JSON.parse → restoreState, repeated for at least ${minMs} ms.`,
      `max_step_ms: the longest wall time of one generator step (the work before one trace event) in the in-memory run; max_step_event names that event. peak_rss_mb: the process's peak resident set (getrusage maxRSS) at the end of the bench, the real-FS runs, the in-memory run and the codec loops included; the three simulations run one after the other, each in a fresh worker thread with the old-space budget the server gives a run of ${rollouts} rollouts (heap_limit_mb), as the server runs each run: each starts with code not yet optimised; heap_used_max_mb is the largest heap any of them used.`,
      'sha256_mb_per_s: MiB (2^20 bytes) per second, median of three passes through the nodeDigest port (node:crypto).',
    ],
  }
}
