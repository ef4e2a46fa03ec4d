import type { SimulationResult, TraceViews } from '@cutover/core'
import type { TraceEvent } from '@cutover/core/contracts'
import type { ViewMethod } from './simulationWorkerProtocol.ts'
import { messageView } from './messageView.ts'
import { sessionsView } from './sessionsView.ts'
import { sessionsWindow } from './sessionsWindow.ts'
import { stepView } from './stepView.ts'
import { tablesView } from './tablesView.ts'
import { timelineView } from './timelineView.ts'

/**
 * The per-step views of SimulationResult a view query can name, plus the composed step, sessions
 * (whole, or a window) and tables views.
 */
type ResultMethod = Exclude<
  ViewMethod,
  'stepView' | 'sessionsView' | 'sessionsWindow' | 'tablesView' | 'messageView' | 'timelineView'
>
const VIEW_METHODS: readonly ViewMethod[] = [
  'participantsAt',
  'sessionsAt',
  'invariantsAt',
  'sessionDetail',
  'tables',
  'lineage',
  'stepView',
  'sessionsView',
  'sessionsWindow',
  'tablesView',
  'messageView',
  'timelineView',
]

/** A composed view as a method of the run (its SimulationResult argument taken away). */
type Composed<F> = F extends (r: never, ...a: infer A) => infer R ? (...a: A) => R : never

/** What each view method takes and gives. */
type ViewSignatures = { readonly [K in ResultMethod]: SimulationResult[K] } & {
  readonly stepView: Composed<typeof stepView>
  readonly sessionsView: Composed<typeof sessionsView>
  readonly sessionsWindow: Composed<typeof sessionsWindow>
  readonly tablesView: Composed<typeof tablesView>
  readonly messageView: Composed<typeof messageView>
  readonly timelineView: Composed<typeof timelineView>
}

/**
 * Asks for one view by name; `json` asks for its JSON text instead of the value (built where the
 * simulation lives).
 */
export type AskView = (
  method: ViewMethod,
  args: readonly unknown[],
  json?: boolean,
) => Promise<unknown>

/**
 * The views of one run as the view routes read them: its events so far, each per-step view of
 * SimulationResult and the step view answered asynchronously — from a simulation held by this
 * thread, or by asking the worker thread that simulates (or simulated) the run — and `json`, the
 * same views as JSON text (a worker encodes it, so this thread neither copies nor encodes the
 * object graph: the API's event loop stays free while a large run streams).
 */
export type RunViews = { readonly events: readonly TraceEvent[] } & {
  readonly [K in ViewMethod]: (
    ...args: Parameters<ViewSignatures[K]>
  ) => Promise<ReturnType<ViewSignatures[K]>>
} & {
  /** The view's JSON text, or undefined when the view is undefined (no such session). */
  json<K extends ViewMethod>(
    method: K,
    ...args: Parameters<ViewSignatures[K]>
  ): Promise<string | undefined>
}

/** Views answered by `ask(method, args, json)` over `events`. */
export function runViews(events: readonly TraceEvent[], ask: AskView): RunViews {
  const views: Record<string, unknown> = { events }
  for (const method of VIEW_METHODS)
    views[method] = (...args: readonly unknown[]) => ask(method, args)
  views['json'] = (method: ViewMethod, ...args: readonly unknown[]) => ask(method, args, true)
  return views as RunViews
}

/** One view of a simulation held in this thread, by name (what a view query asks). */
export function callView(
  result: TraceViews,
  method: ViewMethod,
  args: readonly unknown[],
): unknown {
  if (method === 'stepView') return stepView(result, args[0] as Parameters<typeof stepView>[1])
  if (method === 'sessionsView')
    return sessionsView(result, args[0] as Parameters<typeof sessionsView>[1])
  if (method === 'sessionsWindow')
    return sessionsWindow(result, args[0] as Parameters<typeof sessionsWindow>[1])
  if (method === 'tablesView') return tablesView(result, args[0] as string, args[1] as number)
  if (method === 'messageView')
    return messageView(result, args[0] as Parameters<typeof messageView>[1])
  if (method === 'timelineView')
    return timelineView(result, args[0] as Parameters<typeof timelineView>[1])
  return (result[method] as (...a: readonly unknown[]) => unknown).apply(result, [...args])
}

/** `callView`, as JSON text when `json` (undefined stays undefined). */
export function answerView(
  result: TraceViews,
  method: ViewMethod,
  args: readonly unknown[],
  json: boolean | undefined,
): unknown {
  const value = callView(result, method, args)
  return json === true && value !== undefined ? JSON.stringify(value) : value
}

/**
 * The views of a run held in this thread: a finished or live SimulationResult, or a recorded run's
 * views (`recordedViews`).
 */
export function resultViews(result: TraceViews): RunViews {
  return runViews(result.events, async (method, args, json) =>
    answerView(result, method, args, json),
  )
}
