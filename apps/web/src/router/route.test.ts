import { describe, expect, it } from 'vitest'
import { parseRoute, routeHref } from './route.ts'
import type { Route } from './route.ts'

describe('routes', () => {
  it('[permalink] reads run, step, tab and session from the URL', () => {
    expect(parseRoute('/runs/abc123', '?step=42&tab=tables&session=r004.a1')).toEqual({
      page: 'run',
      id: 'abc123',
      step: 42,
      tab: 'tables',
      session: 'r004.a1',
    })
  })

  it('[permalink] a URL without step follows the live edge, on the Sessions tab', () => {
    expect(parseRoute('/runs/abc', '')).toEqual({
      page: 'run',
      id: 'abc',
      step: null,
      tab: 'sessions',
      session: null,
    })
  })

  it('[permalink] malformed step, tab or session fall back to defaults instead of failing', () => {
    expect(parseRoute('/runs/abc', '?step=-3&tab=nope&session=../../etc')).toMatchObject({
      step: null,
      tab: 'sessions',
      session: null,
    })
    expect(parseRoute('/runs/abc', '?step=1e3')).toMatchObject({ step: null })
    expect(parseRoute('/runs/abc', '?tab=Lineage')).toMatchObject({ tab: 'lineage' })
  })

  it('[permalink] the Events filter, the folded phases, the open payload panel and presentation mode are in the URL', () => {
    const route = parseRoute(
      '/runs/abc',
      '?step=9&tab=events&q=stale_attempt&fold=retire,commit,bogus&message=1&present=1',
    )
    expect(route).toMatchObject({
      step: 9,
      tab: 'events',
      q: 'stale_attempt',
      fold: ['commit', 'retire'],
      message: true,
      present: true,
    })
    expect(routeHref(route)).toBe(
      '/runs/abc?step=9&tab=events&q=stale_attempt&fold=commit%2Cretire&message=1&present=1',
    )
    expect(parseRoute('/runs/abc', '?tab=timeline')).toMatchObject({ tab: 'timeline' })
    expect(parseRoute('/runs/abc', '?message=0&present=yes')).not.toHaveProperty('message')
  })

  it('[permalink] every route survives a round trip through its URL', () => {
    const routes: Route[] = [
      { page: 'home' },
      { page: 'diff', a: 'run1', b: 'run2' },
      { page: 'diff', a: null, b: null },
      { page: 'run', id: 'r1', step: 0, tab: 'events', session: null },
      { page: 'run', id: 'x y/z', step: 7, tab: 'sessions', session: 'r0004.a12' },
      { page: 'straggler', run: 'abc', step: 12, tab: 'lineage', session: null },
      { page: 'straggler', run: null, step: null, tab: 'sessions', session: null },
      { page: 'generation-cut', a: 'runA', b: 'runB', step: 40 },
      { page: 'generation-cut', a: null, b: null, step: null },
    ]
    for (const route of routes) {
      const href = routeHref(route)
      const query = href.indexOf('?')
      expect(
        parseRoute(query < 0 ? href : href.slice(0, query), query < 0 ? '' : href.slice(query)),
      ).toEqual(route)
    }
  })

  it('[routes] the straggler and generation-cut demos and the home page have their own paths; others are not found', () => {
    expect(parseRoute('/demo/straggler', '?run=abc&step=3')).toMatchObject({
      page: 'straggler',
      run: 'abc',
      step: 3,
    })
    expect(parseRoute('/demo/generation-cut', '?a=x&b=y&step=5')).toEqual({
      page: 'generation-cut',
      a: 'x',
      b: 'y',
      step: 5,
    })
    expect(parseRoute('/demo/generation-cut/', '?step=oops')).toEqual({
      page: 'generation-cut',
      a: null,
      b: null,
      step: null,
    })
    expect(parseRoute('/', '')).toEqual({ page: 'home' })
    expect(parseRoute('/runs/', '')).toEqual({ page: 'not_found', path: '/runs' })
    expect(parseRoute('/elsewhere', '')).toEqual({ page: 'not_found', path: '/elsewhere' })
  })
})
