import { mkdirSync, writeFileSync } from 'node:fs'
import type { Page, Response } from '@playwright/test'
import type { RunView } from '@cutover/core/contracts'
import { expect, test } from '../fixtures/test.ts'
import type { RunPage } from '../fixtures/RunPage.ts'

const RESULTS = new URL('../test-results/', import.meta.url).pathname
const SAMPLES = 30
/** Scroll steps through the Sessions tab, top to bottom. */
const SCROLL_STEPS = 60
/**
 * The 10,000-rollout figures take minutes on the 2-core reference machine (the run alone is
 * ≈ 260,000 events), far over the suite's budget: they run only with CUTOVER_PERF_10K=1.
 */
const TEN_K = process.env.CUTOVER_PERF_10K === '1'

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

/**
 * Diagram first render, step to repaint, and a scroll through the Sessions tab of `run`, written to
 * test-results/perf[-<rollouts>].json and printed. Measured, never asserted.
 */
async function measureInspector(
  page: Page,
  runPage: RunPage,
  run: RunView,
  file: string,
): Promise<void> {
  const start = Math.floor(run.events / 2)

  // bytes of the run page's first load: every response from navigation until the first step is
  // shown and 4 s after (the trace used to be asked up to 3 s after the first diagram)
  const loads: Promise<{ url: string; bytes: number }>[] = []
  const onResponse = (response: Response) => {
    loads.push(
      response
        .request()
        .sizes()
        .then(
          (sizes) => ({ url: response.url(), bytes: sizes.responseBodySize }),
          () => ({ url: response.url(), bytes: 0 }),
        ),
    )
  }
  page.on('response', onResponse)
  const navigated = Date.now()
  await page.goto(`/runs/${run.id}?step=${start}`)
  await runPage.waitForStep(start)
  const first = await page.evaluate(() => {
    const render = performance.getEntriesByName('cutover:diagram-render', 'measure')[0]
    const load = performance.getEntriesByName('cutover:mermaid-load', 'measure')[0]
    return {
      render_ms: render?.duration ?? NaN,
      mermaid_load_ms: load?.duration ?? 0,
      ready_since_navigation_ms: render ? render.startTime + render.duration : NaN,
    }
  })
  const firstStepShownMs = Date.now() - navigated
  await page.waitForTimeout(4_000)
  page.off('response', onResponse)
  const loaded = await Promise.all(loads)
  const api = loaded.filter((l) => new URL(l.url).pathname.startsWith('/api/'))
  const largest = [...api].sort((a, b) => b.bytes - a.bytes)[0]

  // step → repaint: key press to the frame after the highlight has moved and the counter changed.
  // "read" samples pause between presses as a person reading does (the neighbours are prefetched
  // meanwhile); "rapid" samples press again as soon as the previous step is painted.
  const read: number[] = []
  const rapid: number[] = []
  // the API's bytes while stepping, the Sessions tab's rows among them (the tab the page opens on)
  const stepLoads: Promise<{ url: string; bytes: number }>[] = []
  const onStepResponse = (response: Response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) return
    stepLoads.push(
      response
        .request()
        .sizes()
        .then(
          (sizes) => ({ url: response.url(), bytes: sizes.responseBodySize }),
          () => ({ url: response.url(), bytes: 0 }),
        ),
    )
  }
  page.on('response', onStepResponse)
  for (let i = 1; i <= 2 * SAMPLES; i++) {
    const target = start + i
    const reading = i <= SAMPLES
    if (reading) await page.waitForTimeout(300)
    const ms = await page.evaluate(
      (want) =>
        new Promise<number>((resolve) => {
          const diagram = document.querySelector('[data-testid="sequence-diagram"]')
          const counter = document.querySelector('[data-testid="step-counter"]')
          const stage = document.querySelector('.stage')
          const t0 = performance.now()
          const done = () =>
            stage?.getAttribute('data-step') === String(want) &&
            counter?.textContent?.startsWith(`step ${want} /`) &&
            diagram?.getAttribute('data-state') === 'ready'
          const check = () => {
            if (done()) requestAnimationFrame(() => resolve(performance.now() - t0))
            else requestAnimationFrame(check)
          }
          document.body.dispatchEvent(
            new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }),
          )
          requestAnimationFrame(check)
        }),
      target,
    )
    ;(reading ? read : rapid).push(ms)
  }
  await expect(runPage.stepCounter).toHaveText(`step ${start + 2 * SAMPLES} / ${run.events}`)
  await page.waitForTimeout(500)
  page.off('response', onStepResponse)
  const stepped = await Promise.all(stepLoads)
  const sessionsLoads = stepped.filter((l) => /\/sessions\?/.test(l.url))

  // Sessions: scroll the virtual list top to bottom in even steps; each sample is the time from
  // setting scrollTop to the second frame after it (the rows of the new window painted).
  await runPage.openTab('Sessions')
  const list = page.getByTestId('sessions-table').locator('.vlist')
  await expect(list).toBeVisible()
  // the rows are their own query, asked once the step settles: scroll the rows of the step shown,
  // not a list that is replaced mid-scroll by the next step's rows
  await expect(page.locator('.sessions-tab')).toHaveAttribute('aria-busy', 'false')
  const scroll = await list.evaluate(async (element, steps) => {
    const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))
    const rows = Number(element.closest('[role="table"]')?.getAttribute('aria-rowcount') ?? '1') - 1
    const frames: number[] = []
    let blank = 0
    const span = element.scrollHeight - element.clientHeight
    for (let i = 1; i <= steps; i++) {
      const t0 = performance.now()
      element.scrollTop = Math.round((span * i) / steps)
      await frame()
      await frame()
      frames.push(performance.now() - t0)
      // rows drawn but not loaded yet at that frame (the Sessions tab asks the rows in view)
      if (element.querySelector('.is-pending') !== null) blank += 1
    }
    return {
      rows,
      frames,
      blank,
      at_bottom: element.scrollTop + element.clientHeight >= element.scrollHeight - 1,
    }
  }, SCROLL_STEPS)
  expect(scroll.at_bottom).toBe(true)

  // the timeline's first render: a click on its tab to the frame after its first lanes' bars are
  // drawn (the worker builds the whole Gantt once, the page asks the lanes in view), then a scroll
  // to its last lane
  const timeline = await page.evaluate(
    () =>
      new Promise<{ first_ms: number; lanes: number }>((resolve) => {
        const tab = Array.from(document.querySelectorAll('[role="tab"]')).find(
          (t) => t.textContent === 'Timeline',
        ) as HTMLElement
        const t0 = performance.now()
        tab.click()
        const check = () => {
          const drawn = document.querySelector('[data-testid="timeline-bar"]')
          if (drawn)
            requestAnimationFrame(() =>
              resolve({
                first_ms: performance.now() - t0,
                lanes: Number(
                  document.querySelector('[data-testid="timeline"]')?.getAttribute('data-rollouts'),
                ),
              }),
            )
          else requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      }),
  )
  const laneList = page.getByTestId('timeline').locator('.vlist')
  const timelineScroll = await laneList.evaluate(async (element) => {
    const t0 = performance.now()
    element.scrollTop = element.scrollHeight
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r))
      const labels = element.querySelectorAll('.tl-label')
      const last = labels[labels.length - 1]?.textContent ?? '…'
      if (last !== '…' && element.querySelector('.tl-bar')) break
      if (performance.now() - t0 > 60_000) break
    }
    return performance.now() - t0
  })

  const figures = {
    rollouts: run.rollouts,
    events: run.events,
    diagram_first_render_ms: Math.round(first.render_ms),
    mermaid_load_ms: Math.round(first.mermaid_load_ms),
    diagram_ready_since_navigation_ms: Math.round(first.ready_since_navigation_ms),
    first_step_shown_ms: firstStepShownMs,
    first_load_bytes: loaded.reduce((sum, l) => sum + l.bytes, 0),
    first_load_api_bytes: api.reduce((sum, l) => sum + l.bytes, 0),
    first_load_api_requests: api.length,
    first_load_largest_api_response:
      largest === undefined
        ? null
        : {
            path: new URL(largest.url).pathname + new URL(largest.url).search,
            bytes: largest.bytes,
          },
    step_to_repaint_ms_median: Math.round(percentile(read, 50)),
    step_to_repaint_ms_p95: Math.round(percentile(read, 95)),
    step_to_repaint_rapid_ms_median: Math.round(percentile(rapid, 50)),
    step_to_repaint_rapid_ms_p95: Math.round(percentile(rapid, 95)),
    step_to_repaint_samples: SAMPLES,
    // each sample, in order: an outlier once (the trace's parse) or every few steps (rows arriving)
    // reads differently
    step_to_repaint_read_ms: read.map(Math.round),
    step_to_repaint_rapid_ms: rapid.map(Math.round),
    sessions_rows: scroll.rows,
    sessions_scroll_frame_ms_median: Math.round(percentile(scroll.frames, 50)),
    sessions_scroll_frame_ms_p95: Math.round(percentile(scroll.frames, 95)),
    sessions_scroll_frame_ms_max: Math.round(Math.max(...scroll.frames)),
    sessions_scroll_samples: SCROLL_STEPS,
    sessions_scroll_blank_samples: scroll.blank,
    step_api_bytes_per_step: Math.round(
      stepped.reduce((sum, l) => sum + l.bytes, 0) / (2 * SAMPLES),
    ),
    step_sessions_requests: sessionsLoads.length,
    step_sessions_bytes_max: Math.max(0, ...sessionsLoads.map((l) => l.bytes)),
    timeline_lanes: timeline.lanes,
    timeline_first_render_ms: Math.round(timeline.first_ms),
    timeline_scroll_to_last_lane_ms: Math.round(timelineScroll),
  }
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(`${RESULTS}${file}`, `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`UI figures (${run.rollouts} rollouts): ${JSON.stringify(figures)}`)
}

test('[figures] diagram first render, step-to-repaint and Sessions scroll for a 1,000-rollout run (measured, not asserted)', async ({
  page,
  createRun,
  runPage,
}) => {
  test.setTimeout(300_000)
  const run = await createRun({ scenario: 'happy-path', rollouts: 1_000 })
  await measureInspector(page, runPage, run, 'perf.json')
})

test('[figures] the same figures at 10,000 rollouts (CUTOVER_PERF_10K=1; measured, not asserted)', async ({
  page,
  request,
  runPage,
}) => {
  test.skip(
    !TEN_K,
    'opt-in: set CUTOVER_PERF_10K=1 (the 10,000-rollout run takes minutes on the reference machine)',
  )
  test.setTimeout(1_800_000)
  // createRun's four-minute wait is too short for a 10,000-rollout run on a shared machine.
  const created = await request.post('/api/runs', {
    data: { scenario: 'happy-path', rollouts: 10_000 },
  })
  expect(created.status()).toBe(201)
  const id = ((await created.json()) as RunView).id
  let run: RunView | undefined
  await expect
    .poll(
      async () => {
        run = (await (await request.get(`/api/runs/${id}`, { timeout: 60_000 })).json()) as RunView
        return run.status
      },
      { timeout: 1_200_000, intervals: [2_000, 5_000] },
    )
    .toBe('complete')
  if (run === undefined) throw new Error('the run finished without a view')
  await measureInspector(page, runPage, run, 'perf-10000.json')
})
