import type { SimulationResult } from '@cutover/core'
import type { TraceEvent } from '@cutover/core/contracts'

/** Milliseconds of simulation per batch before yielding to the event loop. */
export const DEFAULT_SLICE_MS = 8

/**
 * Resolves on the next turn of the event loop, after pending I/O (so requests and streams move).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** What the driver reports as it goes. */
export interface DriveHooks {
  /** A batch of new events was produced (already appended by the caller's `onEvent`). */
  onBatch(): void
  /** True when the run was deleted: stop without finishing. */
  cancelled(): boolean
  /**
   * Called every few events inside a slice, between two simulator steps (the views are consistent
   * there): a worker answers the view queries waiting on its port without waiting for the slice's
   * end.
   */
  between?(): void
}

/** Events between two `between` calls: a few steps (≈ 1–2 ms), a cheap poll. */
const POLL_EVERY = 16

/**
 * Runs a simulation generator in time slices: pull events for about `sliceMs`, report the batch,
 * yield to the event loop, repeat. Returns the result, or undefined when cancelled. Throws what
 * the simulator throws.
 */
export async function driveSimulation(
  generator: Generator<TraceEvent, SimulationResult, void>,
  onEvent: (event: TraceEvent) => void,
  hooks: DriveHooks,
  sliceMs: number = DEFAULT_SLICE_MS,
): Promise<SimulationResult | undefined> {
  for (;;) {
    // Yield first: the request that created the run answers before any simulation work.
    await yieldToEventLoop()
    if (hooks.cancelled()) return undefined
    const started = performance.now()
    let produced = 0
    do {
      const next = generator.next()
      if (next.done === true) {
        if (produced > 0) hooks.onBatch()
        return next.value
      }
      onEvent(next.value)
      produced += 1
      if (produced % POLL_EVERY === 0) hooks.between?.()
      // Checking the time every 64 events keeps the clock read off the hot path.
    } while (produced % 64 !== 0 || performance.now() - started < sliceMs)
    hooks.onBatch()
  }
}
