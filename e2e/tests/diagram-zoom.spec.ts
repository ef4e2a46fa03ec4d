import { expect, test } from '../fixtures/test.ts'

test('the diagram zooms in and out and fits its width', async ({ page, createRun, runPage }) => {
  const run = await createRun({ scenario: 'happy-path', rollouts: 30 })
  await page.goto(`/runs/${run.id}?step=${Math.floor(run.events / 2)}`)
  await runPage.waitForStep(Math.floor(run.events / 2))
  const zoom = page.getByRole('toolbar', { name: 'Diagram zoom' })
  const level = page.getByTestId('diagram-zoom-level')
  await expect(level).toHaveText('100%')
  await zoom.getByRole('button', { name: 'Zoom in' }).click()
  await expect(level).toHaveText('125%')
  await zoom.getByRole('button', { name: 'Zoom out' }).click()
  await zoom.getByRole('button', { name: 'Zoom out' }).click()
  await expect(level).toHaveText('80%')
  await zoom.getByRole('button', { name: 'Fit width' }).click()
  await expect(zoom.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true')
  // fitted: the drawing is no wider than its box (no horizontal scroll left)
  const overflow = await runPage.diagram.evaluate((box) => box.scrollWidth - box.clientWidth)
  expect(overflow).toBeLessThanOrEqual(2)
  // stepping keeps the zoom
  await runPage.press('ArrowRight')
  await runPage.waitForStep(Math.floor(run.events / 2) + 1)
  await expect(zoom.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true')
})
