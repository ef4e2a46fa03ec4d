import { expect, test } from '../fixtures/test.ts'

test('a 1,500-rollout run shows a moving step counter and the live edge while it still streams', async ({ page, request, runPage }) => {
  test.setTimeout(180_000)
  const created = await request.post('/api/runs', { data: { scenario: 'straggler-retirement', rollouts: 1_500 } })
  expect(created.status()).toBe(201)
  const { id } = (await created.json()) as { id: string }
  // record, inside the page, every counter text shown while the run's badge still says running
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __liveSteps: string[] }).__liveSteps = seen
    new MutationObserver(() => {
      const badge = document.querySelector('.run-verdict .badge')?.textContent
      const counter = document.querySelector('[data-testid="step-counter"]')?.textContent
      const edge = document.querySelector('[data-testid="live-edge"]') !== null || document.querySelector('.diagram[data-state="ready"]') !== null
      if (badge === 'running' && counter && seen.at(-1) !== counter) seen.push(`${counter}${edge ? ' +view' : ''}`)
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await page.goto(`/runs/${id}`)
  await runPage.waitForComplete()
  const seen = await page.evaluate(() => (window as unknown as { __liveSteps: string[] }).__liveSteps)
  const steps = seen.map((t) => Number(/^step (\d+)/.exec(t)?.[1] ?? 0)).filter((n) => n > 0)
  expect(new Set(steps).size, `the counter moves while streaming: ${seen.slice(0, 20).join(' | ')}`).toBeGreaterThan(1)
  expect(steps, 'it only moves forward').toEqual([...steps].sort((a, b) => a - b))
  expect(seen.some((t) => t.endsWith('+view')), 'the live edge or the diagram is shown while streaming').toBe(true)
})
