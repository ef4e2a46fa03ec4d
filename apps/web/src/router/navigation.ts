import { useSyncExternalStore } from 'react'
import { parseRoute, routeHref } from './route.ts'
import type { Route } from './route.ts'

const listeners = new Set<() => void>()

function notify() {
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  if (listeners.size === 1) window.addEventListener('popstate', notify)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) window.removeEventListener('popstate', notify)
  }
}

const currentHref = () => window.location.pathname + window.location.search

/**
 * Moves to `href` through the History API. `replace` is for changes that should not pile up in
 * the back button (stepping, filters); moving to another page or tab pushes.
 */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (href === currentHref()) return
  if (options.replace) window.history.replaceState(null, '', href)
  else window.history.pushState(null, '', href)
  notify()
}

/** Navigates to a route. */
export function go(route: Route, options: { replace?: boolean } = {}): void {
  navigate(routeHref(route), options)
}

/** The current route; re-renders when the URL changes (links, back/forward, `navigate`). */
export function useRoute(): Route {
  const href = useSyncExternalStore(subscribe, currentHref, currentHref)
  const query = href.indexOf('?')
  return parseRoute(query < 0 ? href : href.slice(0, query), query < 0 ? '' : href.slice(query))
}
