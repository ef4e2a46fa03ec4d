import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createNodeAppDeps } from '../nodeAppDeps.ts'
import { startServer } from '../server.ts'

/** What `cutover bench --api` measures with. */
export interface ApiBenchOptions {
  /** Rollouts of the run that streams while the views are asked for. */
  readonly rollouts: number
  /** Where the server's temp data directory is made (removed afterwards). */
  readonly tempRoot?: string
  readonly progress?: (line: string) => void
}

/**
 * The figures of `cutover bench --api` (docs/performance.md). Wall-clock, never asserted in
 * tests.
 */
export interface ApiBenchFigures {
  readonly api_rollouts: number
  /**
   * The longest event-loop delay of the server process while the run streamed (perf_hooks
   * histogram, 1 ms resolution).
   */
  readonly event_loop_max_stall_ms: number
  /** 95th percentile of the step, sessions and tables views of the running run, over real HTTP. */
  readonly view_ms_p95: number
  readonly view_ms_max: number
  readonly view_requests: number
  /**
   * The run summary the page polls while a run streams (`GET /api/runs/:id/summary`), and the
   * Events tab's last page (`/events?from=&limit=500`). Both are in `view_ms_p95` too.
   */
  readonly summary_ms_p95: number
  /** `view_ms_p95` of each kind of view alone (step, sessions window, session detail, tables). */
  readonly view_ms_p95_by_kind: { readonly [kind: string]: number }
  readonly events_range_ms_p95: number
  /** `/api/health` answered while the run streamed. */
  readonly health_ms_p95: number
  /** POST /runs to status complete. */
  readonly api_run_ms: number
  /**
   * What a user waits for after "Start run": `POST /api/runs` of a happy-path run of `rollouts` to
   * the run being complete, with nobody else asking (a second run, after the streamed one).
   */
  readonly run_to_end_ms: number
  readonly api_notes: readonly string[]
}

const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return 0
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number
}
const round1 = (x: number): number => Math.round(x * 10) / 10

/** How often `runToEnd` asks for the run's status. */
const END_POLL_MS = 10

/**
 * Ms from `POST /api/runs` of a happy-path run of `rollouts` to `GET /api/runs/:id` answering
 * `complete` (throws when the run ends any other way).
 */
async function runToEnd(url: string, rollouts: number): Promise<number> {
  const started = performance.now()
  const created = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'happy-path', seed: '1', rollouts }),
  })
  if (created.status !== 201)
    throw new Error(`POST /api/runs answered ${created.status}: ${await created.text()}`)
  const id = ((await created.json()) as { id: string }).id
  for (;;) {
    const res = await fetch(`${url}/api/runs/${id}`)
    const { status } = (await res.json()) as { status: string }
    if (status === 'complete') return performance.now() - started
    if (status !== 'running') throw new Error(`run ${id} ended ${status}, not complete`)
    await new Promise((resolve) => setTimeout(resolve, END_POLL_MS))
  }
}

/**
 * Starts the API on an ephemeral loopback port in this process, creates a happy-path run of
 * `rollouts` and, while it streams, asks for its step view, a session, a Workplace session's tables
 * and `/api/health` in turn (one request at a time, as a browser tab stepping would), timing each
 * and the event loop's longest delay.
 */
export async function measureApiBench(options: ApiBenchOptions): Promise<ApiBenchFigures> {
  const dataDir = mkdtempSync(join(options.tempRoot ?? tmpdir(), 'cutover-bench-api-'))
  const progress = options.progress ?? (() => undefined)
  const deps = createNodeAppDeps({ dataDir })
  const { server, url, runs } = await startServer({
    port: 0,
    host: '127.0.0.1',
    serveWeb: false,
    deps,
  })
  const loop = monitorEventLoopDelay({ resolution: 1 })
  try {
    // Timed to the body's last byte. The client shares the server's event loop, so it parses a body
    // only when it needs what is in it (a browser parses in its own process, not the server's).
    const timed = async (path: string, parse = false): Promise<{ ms: number; body: unknown }> => {
      const t0 = performance.now()
      const res = await fetch(`${url}/api${path}`)
      const text = await res.text()
      const ms = performance.now() - t0
      return { ms, body: parse ? (JSON.parse(text) as unknown) : undefined }
    }
    progress(`API: a ${options.rollouts}-rollout happy-path run streaming on ${url}…`)
    loop.enable()
    const started = performance.now()
    const created = await fetch(`${url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: 'happy-path', seed: '0', rollouts: options.rollouts }),
    })
    if (created.status !== 201)
      throw new Error(`POST /api/runs answered ${created.status}: ${await created.text()}`)
    const id = ((await created.json()) as { id: string }).id
    const views: number[] = []
    const byKind: { [kind: string]: number[] } = { step: [], sessions: [], session: [], tables: [] }
    const view = (kind: string, ms: number): void => {
      views.push(ms)
      byKind[kind]?.push(ms)
    }
    const health: number[] = []
    const summaries: number[] = []
    const ranges: number[] = []
    let session: string | undefined
    let tables: string | undefined
    for (;;) {
      const run = await timed(`/runs/${id}`, true)
      const edge = run.body as { status: string; events: number }
      if (edge.status !== 'running') break
      health.push((await timed('/health')).ms)
      summaries.push((await timed(`/runs/${id}/summary`)).ms)
      ranges.push(
        (await timed(`/runs/${id}/events?from=${Math.max(0, edge.events - 500)}&limit=500`)).ms,
      )
      view('step', (await timed(`/runs/${id}/steps/${edge.events}`)).ms)
      // The Sessions tab's window of rows in view (as the web asks since round 4), and the Tables
      // tab's picker.
      const sessions = await timed(
        `/runs/${id}/sessions?step=${edge.events}&offset=0&limit=200`,
        session === undefined,
      )
      view('sessions', sessions.ms)
      session ??= (sessions.body as { sessions?: { key: string }[] } | undefined)?.sessions?.[0]
        ?.key
      if (tables === undefined) {
        const workplace = await timed(
          `/runs/${id}/sessions?step=${edge.events}&environment=workplace&offset=0&limit=1`,
          true,
        )
        tables = (workplace.body as { sessions?: { key: string }[] }).sessions?.[0]?.key
      }
      if (session !== undefined)
        view('session', (await timed(`/runs/${id}/sessions/${session}?step=${edge.events}`)).ms)
      if (tables !== undefined)
        view(
          'tables',
          (await timed(`/runs/${id}/sessions/${tables}/tables?step=${edge.events}`)).ms,
        )
    }
    const runMs = performance.now() - started
    loop.disable()
    progress(`API: run_to_end_ms, a second ${options.rollouts}-rollout run, POST to complete…`)
    const toEnd = await runToEnd(url, options.rollouts)
    return {
      api_rollouts: options.rollouts,
      event_loop_max_stall_ms: round1(loop.max / 1e6),
      view_ms_p95: round1(percentile([...views, ...summaries, ...ranges], 95)),
      view_ms_max: round1(Math.max(0, ...views, ...summaries, ...ranges)),
      view_requests: views.length + summaries.length + ranges.length,
      view_ms_p95_by_kind: Object.fromEntries(
        Object.entries(byKind).map(([kind, ms]) => [kind, round1(percentile(ms, 95))]),
      ),
      summary_ms_p95: round1(percentile(summaries, 95)),
      events_range_ms_p95: round1(percentile(ranges, 95)),
      health_ms_p95: round1(percentile(health, 95)),
      api_run_ms: Math.round(runMs),
      run_to_end_ms: Math.round(toEnd),
      api_notes: [
        `run_to_end_ms: a second happy-path run of ${options.rollouts} rollouts (seed 1) on the same server once the first is done, timed from sending POST /api/runs to the first GET /api/runs/:id answering status complete (asked every ${END_POLL_MS} ms, nothing else asked meanwhile); it includes the simulation in its worker thread, its invariant and equivalence checks, and storing the finished run. api_run_ms is the first run's, slowed by the views asked while it streams.`,
        'event_loop_max_stall_ms: the maximum of a perf_hooks event-loop delay histogram (1 ms resolution) over the run, on the thread that serves the API (the simulation runs in its own worker thread); the bench client shares that loop.',
        "view_ms_p95: each request timed from fetch to the last byte of its body (the client parses a body only while it still looks for a session key: its own JSON parsing would otherwise count as a server stall), one at a time: GET /api/runs/:id/summary, the last 500 events (GET /api/runs/:id/events?from=&limit=500), GET /api/runs/:id/steps/:n and the Sessions tab's window (GET /api/runs/:id/sessions?step=n&offset=0&limit=200) at the current edge, a session detail and a Workplace session's tables at that step, repeated until the run completes (summary_ms_p95 and events_range_ms_p95 are those two alone).",
      ],
    }
  } finally {
    loop.disable()
    await runs.idle()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(dataDir, { recursive: true, force: true })
  }
}
