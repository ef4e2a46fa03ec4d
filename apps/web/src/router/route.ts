import { TRACE_PHASES } from '@cutover/core/contracts'
import type { TracePhase } from '@cutover/core/contracts'

/** The inspector's tabs, in the order they appear; `tab=` in the URL takes these names. */
export const TABS = [
  'sessions',
  'tables',
  'lineage',
  'timeline',
  'manifests',
  'invariants',
  'events',
] as const
export type Tab = (typeof TABS)[number]

/** The label a tab shows (docs/inspector.md: names exactly as shown). */
export const TAB_LABELS: { readonly [T in Tab]: string } = {
  sessions: 'Sessions',
  tables: 'Tables',
  lineage: 'Lineage',
  timeline: 'Timeline',
  manifests: 'Manifests',
  invariants: 'Invariants',
  events: 'Events',
}

/** What the inspector shows at one run: `step` null follows the live edge (the last step). */
export interface InspectorView {
  readonly step: number | null
  readonly tab: Tab
  readonly session: string | null
  /** The Events tab's filter (`q=`); absent: none. */
  readonly q?: string
  /** The diagram's folded phases (`fold=prepare,commit`); absent: none. */
  readonly fold?: readonly TracePhase[]
  /** The payload panel of the current message is open (`message=1`). */
  readonly message?: boolean
  /** Presentation mode (`present=1`): the diagram and the narration only, in large type. */
  readonly present?: boolean
}

/** Every page of the app, parsed from the URL. The URL is the permalink. */
export type Route =
  | { readonly page: 'home' }
  | ({ readonly page: 'run'; readonly id: string } & InspectorView)
  | ({ readonly page: 'straggler'; readonly run: string | null } & InspectorView)
  | { readonly page: 'diff'; readonly a: string | null; readonly b: string | null }
  /**
   * `/demo/generation-cut`: two runs of the same seed (`a` whole-request, `b` generation-safe), one
   * step cursor.
   */
  | {
      readonly page: 'generation-cut'
      readonly a: string | null
      readonly b: string | null
      readonly step: number | null
    }
  | { readonly page: 'not_found'; readonly path: string }

const SESSION_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*\.a\d+$/

function isTab(value: string): value is Tab {
  return (TABS as readonly string[]).includes(value)
}

/** `step=` of a query string, or null when absent or malformed. */
function parseStep(params: URLSearchParams): number | null {
  const rawStep = params.get('step')
  return rawStep !== null && /^\d{1,9}$/.test(rawStep) ? Number(rawStep) : null
}

/** Reads step, tab and session from a query string; malformed values fall back to defaults. */
function parseView(params: URLSearchParams): InspectorView {
  const step = parseStep(params)
  const rawTab = (params.get('tab') ?? '').toLowerCase()
  const session = params.get('session')
  const view: {
    -readonly [K in keyof InspectorView]: InspectorView[K]
  } = {
    step,
    tab: isTab(rawTab) ? rawTab : 'sessions',
    session: session !== null && SESSION_KEY.test(session) ? session : null,
  }
  const q = params.get('q')
  if (q) view.q = q.slice(0, 200)
  const fold = (params.get('fold') ?? '')
    .split(',')
    .filter((p): p is TracePhase => (TRACE_PHASES as readonly string[]).includes(p))
  if (fold.length > 0) view.fold = [...new Set(fold)].sort()
  if (params.get('message') === '1') view.message = true
  if (params.get('present') === '1') view.present = true
  return view
}

/** Parses a location into a route. Unknown paths give `not_found` rather than a silent redirect. */
export function parseRoute(pathname: string, search: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/'
  const params = new URLSearchParams(search)
  if (path === '/') return { page: 'home' }
  if (path === '/diff')
    return { page: 'diff', a: params.get('a') || null, b: params.get('b') || null }
  if (path === '/demo/generation-cut')
    return {
      page: 'generation-cut',
      a: params.get('a') || null,
      b: params.get('b') || null,
      step: parseStep(params),
    }
  if (path === '/demo/straggler')
    return { page: 'straggler', run: params.get('run') || null, ...parseView(params) }
  const run = /^\/runs\/([^/]+)$/.exec(path)
  if (run?.[1]) {
    let id: string
    try {
      id = decodeURIComponent(run[1])
    } catch {
      return { page: 'not_found', path }
    }
    return { page: 'run', id, ...parseView(params) }
  }
  return { page: 'not_found', path }
}

/** Builds the query string of an inspector view, leaving defaults out so links stay short. */
export function viewSearch(view: InspectorView, extra: readonly [string, string][] = []): string {
  const params = new URLSearchParams(extra as [string, string][])
  if (view.step !== null) params.set('step', String(view.step))
  if (view.tab !== 'sessions') params.set('tab', view.tab)
  if (view.session !== null) params.set('session', view.session)
  if (view.q) params.set('q', view.q)
  if (view.fold && view.fold.length > 0) params.set('fold', [...view.fold].sort().join(','))
  if (view.message) params.set('message', '1')
  if (view.present) params.set('present', '1')
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** The URL of a route: `parseRoute(routeHref(r))` gives `r` back. */
export function routeHref(route: Route): string {
  switch (route.page) {
    case 'home':
      return '/'
    case 'run':
      return `/runs/${encodeURIComponent(route.id)}${viewSearch(route)}`
    case 'straggler':
      return `/demo/straggler${viewSearch(route, route.run ? [['run', route.run]] : [])}`
    case 'diff':
    case 'generation-cut': {
      const params = new URLSearchParams()
      if (route.a) params.set('a', route.a)
      if (route.b) params.set('b', route.b)
      if (route.page === 'generation-cut' && route.step !== null)
        params.set('step', String(route.step))
      const text = params.toString()
      return `${route.page === 'diff' ? '/diff' : '/demo/generation-cut'}${text ? `?${text}` : ''}`
    }
    case 'not_found':
      return route.path
  }
}
