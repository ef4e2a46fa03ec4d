import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppDeps, ApiApp } from '../app.ts'
import { createApiApp } from '../app.ts'
import { createNodeAppDeps } from '../nodeAppDeps.ts'
import type { RunView } from '@cutover/core/contracts'

/**
 * A DELETE as the web app sends it: state changes under /api/ must say they are JSON
 * (docs/security.md).
 */
export const JSON_DELETE = {
  method: 'DELETE',
  headers: { 'content-type': 'application/json' },
} as const satisfies RequestInit

/** A fresh temp data directory (removed by `cleanup`). */
export function tempDataDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cutover-api-'))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A settable clock starting at 2026-01-01T00:00:00Z, stepping 1 s per read so ids differ. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): { now: () => number } {
  let t = start
  return { now: () => (t += 1000) }
}

/** Real ports over a temp data directory, with a deterministic clock and session ids. */
export function testDeps(dataDir: string, overrides: Partial<AppDeps> = {}): AppDeps {
  let n = 0
  // A test that passes its own simulator means that simulator to run: fresh runs then simulate in
  // this thread, unless the test passes worker threads too.
  const { simulationWorkers, ...node } = createNodeAppDeps({ dataDir, log: () => undefined })
  return {
    ...node,
    ...(overrides.simulator === undefined && simulationWorkers !== undefined
      ? { simulationWorkers }
      : {}),
    clock: steppingClock(),
    newSessionId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    ...overrides,
  }
}

/** The app over `testDeps`, plus JSON helpers. */
export function apiHarness(
  dataDir: string,
  overrides: Partial<AppDeps> = {},
): ApiApp & {
  simulator: AppDeps['simulator']
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked structurally
  json: (path: string, init?: RequestInit) => Promise<{ status: number; body: any }>
  createRun: (body: unknown) => Promise<RunView>
  waitComplete: (id: string) => Promise<RunView>
} {
  const deps = testDeps(dataDir, overrides)
  const api = createApiApp(deps)
  const json = async (path: string, init?: RequestInit) => {
    const response = await api.app.request(path, init)
    const text = await response.text()
    return {
      status: response.status,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked structurally
      body: text === '' ? null : (JSON.parse(text) as unknown as any),
    }
  }
  return {
    ...api,
    simulator: deps.simulator,
    json,
    async createRun(body) {
      const r = await json('/api/runs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body as RunView
    },
    async waitComplete(id) {
      await api.runs.idle()
      return (await json(`/api/runs/${id}`)).body as RunView
    },
  }
}
