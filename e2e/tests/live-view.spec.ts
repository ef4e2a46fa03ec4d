import { expect, test } from '../fixtures/test.ts'

test('a 1,500-rollout run draws its diagram and moves its step counter while it still streams', async ({
  page,
  request,
  runPage,
}) => {
  test.setTimeout(180_000)
  const created = await request.post('/api/runs', {
    data: { scenario: 'straggler-retirement', rollouts: 1_500 },
  })
  expect(created.status()).toBe(201)
  const { id } = (await created.json()) as { id: string }
  // record, inside the page, every counter text shown while the run's badge still says running
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __liveSteps: string[] }).__liveSteps = seen
    new MutationObserver(() => {
      const badge = document.querySelector('.run-verdict .badge')?.textContent
      const counter = document.querySelector('[data-testid="step-counter"]')?.textContent
      // the drawn diagram: an SVG with messages in it, not a placeholder
      const messages = document.querySelectorAll(
        '[data-testid="sequence-diagram"][data-state="ready"] .diagram-canvas svg text.messageText',
      ).length
      const entry = `${counter} +${messages} messages`
      if (badge === 'running' && counter && seen.at(-1) !== entry) seen.push(entry)
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await page.goto(`/runs/${id}`)
  await runPage.waitForComplete()
  const seen = await page.evaluate(
    () => (window as unknown as { __liveSteps: string[] }).__liveSteps,
  )
  const steps = seen.map((t) => Number(/^step (\d+)/.exec(t)?.[1] ?? 0)).filter((n) => n > 0)
  expect(
    new Set(steps).size,
    `the counter moves while streaming: ${seen.slice(0, 20).join(' | ')}`,
  ).toBeGreaterThan(1)
  expect(steps, 'it only moves forward').toEqual([...steps].sort((a, b) => a - b))
  // while the run still streams, the diagram is drawn, and the counter moves with it drawn
  const drawn = seen.filter((t) => !t.endsWith(' +0 messages'))
  expect(
    drawn.length,
    `the diagram is drawn while streaming: ${seen.slice(0, 20).join(' | ')}`,
  ).toBeGreaterThan(0)
  const drawnSteps = new Set(drawn.map((t) => /^step (\d+)/.exec(t)?.[1]))
  expect(
    drawnSteps.size,
    `the counter moves while the diagram is drawn: ${drawn.slice(0, 20).join(' | ')}`,
  ).toBeGreaterThan(1)
})
