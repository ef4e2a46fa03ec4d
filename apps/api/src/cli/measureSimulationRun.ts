import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { SimulationResult, WorkplaceData } from '@cutover/core'
import { resolveRunConfig, simulate, verifyCheckpoint } from '@cutover/core'
import type { CutMode, TraceEvent } from '@cutover/core/contracts'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { MemoryCheckpointDirectory } from '@cutover/core/testing'
import { removeSettled } from './removeSettled.ts'
import type { CheckpointLayout } from './SyncBatchRecorder.ts'
import { SyncBatchRecorder } from './SyncBatchRecorder.ts'

/**
 * One simulation `cutover bench` times: a checkpoint cycle on the real file system, or a whole run
 * in memory.
 */
export type BenchRunRequest =
  | {
      readonly kind: 'cycle'
      readonly rollouts: number
      readonly seed: string
      readonly cutMode: CutMode
      readonly tempRoot?: string | undefined
    }
  | { readonly kind: 'memory'; readonly rollouts: number; readonly seed: string }
  /**
   * The floor of a checkpoint: its files written again with the bare durability steps
   * (`measureFsFloor`). `of`: an earlier cycle request of the same worker, whose layout is used;
   * or the `layout` itself, as an earlier worker returned it.
   */
  | {
      readonly kind: 'floor'
      readonly of?: number
      readonly layout?: CheckpointLayout
      readonly tempRoot?: string | undefined
    }

/** Phases of the checkpoint cycle, in the order they happen. */
export const CYCLE_PHASES = ['prepare', 'retire', 'commit', 'restore', 'resume'] as const

/** What one timed simulation gives (never its trace: that stays in the thread that ran it). */
export interface BenchRunFigures {
  readonly totalMs: number
  /** Wall ms up to the last trace event (the equivalence baseline runs after it). */
  readonly lastEventMs: number
  readonly phaseMs: { readonly [phase: string]: number }
  /**
   * From the first non-`run` event to the last `resume` event; null when no checkpoint happened.
   */
  readonly windowMs: number | null
  readonly files: number
  readonly bytes: number
  readonly maxStepMs: number
  readonly maxStepEvent: string
  readonly events: number
  readonly invariantsPass: boolean
  /** Cycle runs: `verifyCheckpoint` of every published directory from disk, and its outcome. */
  readonly verifyMs: number
  readonly valid: boolean
  readonly checkpoints: number
  /** The V8 heap of the thread that ran it, at its largest sample (every 5,000 events). */
  readonly heapUsedMaxMb: number
  /**
   * Cycle runs: the files of its checkpoints as written (read from disk before the folder is
   * removed), in the `sync()` batches that made them durable.
   */
  readonly layout?: CheckpointLayout
}

/**
 * Runs and times one bench simulation in this thread (`runBenchSimulations` puts it in a worker).
 */
export function measureSimulationRun(
  request: Exclude<BenchRunRequest, { readonly kind: 'floor' }>,
  workplace: WorkplaceData,
): BenchRunFigures {
  if (request.kind === 'memory') {
    const config = resolveRunConfig({
      scenario: 'happy-path',
      seed: request.seed,
      rollouts: request.rollouts,
    })
    const run = timedRun(
      simulate(config, {
        digest: nodeDigest,
        workplace,
        openDirectory: (id) => new MemoryCheckpointDirectory({ location: `memory:${id}` }),
      }),
    )
    const { result, ...figures } = run
    return {
      ...figures,
      events: result.events.length,
      invariantsPass: Object.values(result.invariants).every((v) => v === 'pass'),
      verifyMs: 0,
      valid: true,
      checkpoints: result.checkpoints.length,
    }
  }
  const root = mkdtempSync(join(request.tempRoot ?? tmpdir(), 'cutover-bench-'))
  try {
    const config = resolveRunConfig(
      request.cutMode === 'whole-request'
        ? { scenario: 'happy-path', seed: request.seed, rollouts: request.rollouts }
        : { scenario: 'generation-safe-cut', seed: request.seed, rollouts: request.rollouts },
    )
    const recorder = new SyncBatchRecorder()
    const run = timedRun(
      simulate(config, {
        digest: nodeDigest,
        workplace,
        openDirectory: (id) => recorder.wrap(id, new NodeCheckpointDirectory(join(root, id))),
      }),
    )
    const t0 = performance.now()
    let valid = true
    for (const c of run.result.checkpoints)
      valid =
        verifyCheckpoint(new NodeCheckpointDirectory(c.location, { create: false }), nodeDigest)
          .valid && valid
    const verifyMs = performance.now() - t0
    const { result, ...figures } = run
    return {
      ...figures,
      events: result.events.length,
      invariantsPass: Object.values(result.invariants).every((v) => v === 'pass'),
      verifyMs,
      valid,
      checkpoints: result.checkpoints.length,
      layout: recorder.layout(
        root,
        result.checkpoints.map((c) => c.location.slice(root.length + 1)),
      ),
    }
  } finally {
    removeSettled(root)
  }
}

/**
 * Streams a simulation, timing the work before each event and attributing it to the event's phase.
 */
function timedRun(gen: Generator<TraceEvent, SimulationResult>) {
  const phaseMs: { [phase: string]: number } = Object.fromEntries(CYCLE_PHASES.map((p) => [p, 0]))
  let windowStart: number | undefined
  let windowEnd: number | undefined
  let files = 0
  let bytes = 0
  let maxStepMs = 0
  let maxStepEvent = ''
  let heapUsedMax = 0
  let count = 0
  const started = performance.now()
  let before = started
  for (;;) {
    const next = gen.next()
    const now = performance.now()
    if (next.done === true) {
      heapUsedMax = Math.max(heapUsedMax, process.memoryUsage().heapUsed)
      return {
        result: next.value,
        totalMs: now - started,
        lastEventMs: before - started,
        phaseMs,
        windowMs:
          windowStart === undefined || windowEnd === undefined ? null : windowEnd - windowStart,
        files,
        bytes,
        maxStepMs,
        maxStepEvent,
        heapUsedMaxMb: Math.round(heapUsedMax / 2 ** 20),
      }
    }
    const event = next.value
    if (now - before > maxStepMs) {
      maxStepMs = now - before
      const where = event.payload['path'] ?? event.payload['rollout_id']
      maxStepEvent = `${event.step} ${event.type}${typeof where === 'string' ? ` ${where}` : ''}`
    }
    if (windowStart === undefined && event.phase !== 'run') windowStart = before
    if (event.phase in phaseMs)
      phaseMs[event.phase] = (phaseMs[event.phase] as number) + (now - before)
    if (event.phase === 'resume') windowEnd = now
    if (event.type === 'directory.write' && event.outcome === 'ok') {
      files++
      const b = event.payload['bytes']
      if (typeof b === 'number') bytes += b
    }
    // Sampled between steps, outside the timed work (memoryUsage walks the heap's spaces).
    if (++count % 5000 === 0) heapUsedMax = Math.max(heapUsedMax, process.memoryUsage().heapUsed)
    before = performance.now()
  }
}
