import { expect, test } from '../fixtures/test.ts'

test('the diagram fits a 1,440-px pane by default with no horizontal scroll, and zooms in and out', async ({
  page,
  createRun,
  runPage,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  const run = await createRun({ scenario: 'happy-path', rollouts: 30 })
  await page.goto(`/runs/${run.id}?step=${Math.floor(run.events / 2)}`)
  await runPage.waitForStep(Math.floor(run.events / 2))
  const zoom = page.getByRole('toolbar', { name: 'Diagram zoom' })
  const level = page.getByTestId('diagram-zoom-level')
  // default: fitted to the pane, nothing to scroll sideways, in the page or in the diagram
  await expect(zoom.getByRole('button', { name: 'Fit width' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  expect(
    await runPage.diagram.evaluate((box) => box.scrollWidth - box.clientWidth),
  ).toBeLessThanOrEqual(2)
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0)
  await zoom.getByRole('button', { name: '100%' }).click()
  await expect(level).toHaveText('100%')
  await zoom.getByRole('button', { name: 'Zoom in' }).click()
  await expect(level).toHaveText('125%')
  await zoom.getByRole('button', { name: 'Zoom out' }).click()
  await zoom.getByRole('button', { name: 'Zoom out' }).click()
  // zooming out stops where the labels would be under 11 px (13 px drawn at 85 %)
  await expect(level).toHaveText('85%')
  await expect(zoom.getByRole('button', { name: 'Zoom out' })).toBeDisabled()
  await zoom.getByRole('button', { name: 'Fit width' }).click()
  await expect(zoom.getByRole('button', { name: 'Fit width' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  // fitted: the drawing is no wider than its box (no horizontal scroll left)
  const overflow = await runPage.diagram.evaluate((box) => box.scrollWidth - box.clientWidth)
  expect(overflow).toBeLessThanOrEqual(2)
  // stepping keeps the zoom
  await runPage.press('ArrowRight')
  await runPage.waitForStep(Math.floor(run.events / 2) + 1)
  await expect(zoom.getByRole('button', { name: 'Fit width' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
})

test('a 90-rollout straggler run at 1,440 px: at the start of every phase the diagram fits, no label is clipped, the current arrow shows whole and the lifelines keep their order', async ({
  page,
  createRun,
  runPage,
}) => {
  test.setTimeout(150_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  const run = await createRun({ scenario: 'straggler-retirement', rollouts: 90 })
  await page.goto(`/runs/${run.id}?step=0`)
  await runPage.waitForStep(0)
  const next = page.getByRole('button', { name: 'next phase' })
  const lifelines = new Set<string>()
  let visited = 0
  while (await next.isEnabled()) {
    const before = (await runPage.position()).step
    await next.click()
    await expect.poll(async () => (await runPage.position()).step).toBeGreaterThan(before)
    const { step } = await runPage.position()
    await runPage.waitForStep(step)
    await expect(runPage.diagram).toHaveAttribute('data-highlight', /^\d+$/)
    const seen = await runPage.diagram.evaluate((box) => {
      const svg = box.querySelector<SVGSVGElement>('.diagram-canvas svg')
      if (!svg) throw new Error('no diagram')
      const view = svg.viewBox.baseVal
      // every text (messages, notes, phase labels, actors) inside the drawing's own box: nothing
      // clipped
      const clipped = Array.from(svg.querySelectorAll<SVGTextElement>('text'))
        .filter((t) => (t.textContent ?? '').trim() !== '')
        .filter((t) => {
          const b = t.getBBox()
          return (
            b.x < view.x ||
            b.x + b.width > view.x + view.width ||
            b.y < view.y ||
            b.y + b.height > view.y + view.height
          )
        })
        .map((t) => t.textContent)
      const current = svg.querySelector('rect.current-box')?.getBoundingClientRect()
      const pane = box.getBoundingClientRect()
      return {
        overflow: box.scrollWidth - box.clientWidth,
        clipped,
        currentShown: current
          ? current.left >= pane.left &&
            current.right <= pane.right &&
            current.top >= pane.top &&
            current.bottom <= pane.bottom
          : false,
        // the lifelines drawn, left to right (a window leaves out those it does not use)
        lifelines: Array.from(svg.querySelectorAll<SVGRectElement>('rect.actor-top'))
          .sort((a, b) => Number(a.getAttribute('x')) - Number(b.getAttribute('x')))
          .map((r) => r.getAttribute('name') ?? '')
          .join(','),
      }
    })
    expect(seen.overflow, `step ${step}: no sideways scroll`).toBeLessThanOrEqual(0)
    expect(seen.clipped, `step ${step}: labels inside the drawing`).toEqual([])
    expect(seen.currentShown, `step ${step}: both ends of the current arrow in view`).toBe(true)
    lifelines.add(seen.lifelines)
    visited++
  }
  expect(visited).toBeGreaterThanOrEqual(5)
  // every window draws its lifelines in the contract's order, controller and agent always there
  const ORDER = [
    'controller',
    'agent',
    'policy_model',
    'generation_worker',
    'token_store',
    'resources_blackjack',
    'resources_counter',
    'resources_workplace',
    'directory',
    'rollouts',
  ]
  for (const drawn of lifelines) {
    const names = drawn.split(',')
    expect(names.slice(0, 2), drawn).toEqual(['controller', 'agent'])
    const ranks = names.map((n) => ORDER.indexOf(n))
    expect(ranks, drawn).toEqual([...ranks].sort((a, b) => a - b))
  }
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0)
})
