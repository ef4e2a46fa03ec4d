import type { EnvName, GymRouteModels, PyJson } from '@cutover/core'
import { blackjackRouteModels, counterRouteModels, workplaceRouteModels } from '@cutover/core'
import type { JsonValue } from '@cutover/core/contracts'
import { aggregateMetrics } from './aggregateMetrics.ts'

/** The reference routes of one environment server beyond `GET /` (docs/environments.md §0–§4). */
export interface GymRouteTable {
  /** True for a POST data-plane route the reference registers. */
  isRoute(path: string): boolean
  /**
   * `GET /reverify_mode` (SimpleResourcesServer); Gymnasium servers replace the parent routes and
   * have none.
   */
  readonly reverifyMode: JsonValue | undefined
  /** The request and response models FastAPI applies around each route's handler. */
  readonly models: GymRouteModels
  aggregateMetrics(body: PyJson): { status: number; body: PyJson }
}

const fixed = (paths: readonly string[]) => (path: string) => paths.includes(path)

export const GYM_ROUTES: { readonly [K in EnvName]: GymRouteTable } = {
  // GymnasiumServer.setup_webserver registers only /reset, /step and /aggregate_metrics.
  blackjack: {
    isRoute: fixed(['/reset', '/step']),
    reverifyMode: undefined,
    models: blackjackRouteModels,
    aggregateMetrics,
  },
  counter: {
    isRoute: fixed(['/seed_session', '/increment_counter', '/get_counter_value', '/verify']),
    reverifyMode: 'unknown',
    models: counterRouteModels,
    aggregateMetrics,
  },
  // A catch-all `POST /{path}` (one segment) routes every tool name; unknown tools are tool errors.
  workplace: {
    isRoute: (path) => /^\/[^/]+$/.test(path),
    reverifyMode: 'unknown',
    models: workplaceRouteModels,
    aggregateMetrics,
  },
}
