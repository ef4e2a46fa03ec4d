import { mkdirSync, writeFileSync } from 'node:fs'
import { expect, test } from '../fixtures/test.ts'

const RESULTS = new URL('../test-results/', import.meta.url).pathname
const ROLLOUTS = 1_000
const SAMPLES = 30

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

test('[figures] diagram first render and step-to-repaint for a 1,000-rollout run (measured, not asserted)', async ({ page, createRun, runPage }) => {
  test.setTimeout(300_000)
  const run = await createRun({ scenario: 'happy-path', rollouts: ROLLOUTS })
  const start = Math.floor(run.events / 2)

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

  // step → repaint: key press to the frame after the highlight has moved and the counter changed.
  // "read" samples pause between presses as a person reading does (the neighbours are prefetched
  // meanwhile); "rapid" samples press again as soon as the previous step is painted.
  const read: number[] = []
  const rapid: number[] = []
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
          const done = () => stage?.getAttribute('data-step') === String(want) && counter?.textContent?.startsWith(`step ${want} /`) && diagram?.getAttribute('data-state') === 'ready'
          const check = () => {
            if (done()) requestAnimationFrame(() => resolve(performance.now() - t0))
            else requestAnimationFrame(check)
          }
          document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))
          requestAnimationFrame(check)
        }),
      target,
    )
    ;(reading ? read : rapid).push(ms)
  }
  await expect(runPage.stepCounter).toHaveText(`step ${start + 2 * SAMPLES} / ${run.events}`)

  const figures = {
    rollouts: ROLLOUTS,
    events: run.events,
    diagram_first_render_ms: Math.round(first.render_ms),
    mermaid_load_ms: Math.round(first.mermaid_load_ms),
    diagram_ready_since_navigation_ms: Math.round(first.ready_since_navigation_ms),
    step_to_repaint_ms_median: Math.round(percentile(read, 50)),
    step_to_repaint_ms_p95: Math.round(percentile(read, 95)),
    step_to_repaint_rapid_ms_median: Math.round(percentile(rapid, 50)),
    step_to_repaint_rapid_ms_p95: Math.round(percentile(rapid, 95)),
    step_to_repaint_samples: SAMPLES,
  }
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(`${RESULTS}perf.json`, `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`UI figures: ${JSON.stringify(figures)}`)
})
