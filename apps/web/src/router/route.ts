/** The inspector's tabs, in the order they appear; `tab=` in the URL takes these names. */
export const TABS = ['sessions', 'tables', 'lineage', 'manifests', 'invariants', 'events'] as const
export type Tab = (typeof TABS)[number]

/** The label a tab shows (CONTRACTS.md §8: names exactly as shown). */
export const TAB_LABELS: { readonly [T in Tab]: string } = {
  sessions: 'Sessions',
  tables: 'Tables',
  lineage: 'Lineage',
  manifests: 'Manifests',
  invariants: 'Invariants',
  events: 'Events',
}

/** What the inspector shows at one run: `step` null follows the live edge (the last step). */
export interface InspectorView {
  readonly step: number | null
  readonly tab: Tab
  readonly session: string | null
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
  return {
    step,
    tab: isTab(rawTab) ? rawTab : 'sessions',
    session: session !== null && SESSION_KEY.test(session) ? session : null,
  }
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
function viewSearch(view: InspectorView, extra: readonly [string, string][] = []): string {
  const params = new URLSearchParams(extra as [string, string][])
  if (view.step !== null) params.set('step', String(view.step))
  if (view.tab !== 'sessions') params.set('tab', view.tab)
  if (view.session !== null) params.set('session', view.session)
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
