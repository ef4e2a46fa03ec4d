import type { SimulationResult } from '@cutover/core'
import type { TraceEvent } from '@cutover/core/contracts'
import type { ViewMethod } from './simulationWorkerProtocol.ts'

const VIEW_METHODS: readonly ViewMethod[] = ['participantsAt', 'sessionsAt', 'invariantsAt', 'sessionDetail', 'tables', 'lineage']

/**
 * The views of one run as the view routes read them: its events so far, and each per-step view of
 * SimulationResult answered asynchronously — from a simulation held by this thread, or by asking
 * the worker thread that simulates (or simulated) the run.
 */
export type RunViews = { readonly events: readonly TraceEvent[] } & {
  readonly [K in ViewMethod]: (...args: Parameters<SimulationResult[K]>) => Promise<ReturnType<SimulationResult[K]>>
}

/** Views answered by `ask(method, args)` over `events`. */
export function runViews(events: readonly TraceEvent[], ask: (method: ViewMethod, args: readonly unknown[]) => Promise<unknown>): RunViews {
  const views: Record<string, unknown> = { events }
  for (const method of VIEW_METHODS) views[method] = (...args: readonly unknown[]) => ask(method, args)
  return views as RunViews
}

/** One view of a simulation held in this thread, by name (what a view query asks). */
export function callView(result: SimulationResult, method: ViewMethod, args: readonly unknown[]): unknown {
  return (result[method] as (...a: readonly unknown[]) => unknown).apply(result, [...args])
}

/** The views of a simulation held in this thread (a finished or live SimulationResult). */
export function resultViews(result: SimulationResult): RunViews {
  return runViews(result.events, async (method, args) => callView(result, method, args))
}
