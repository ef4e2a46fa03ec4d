import { mkdirSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

const panel = (page: Page, mode: 'whole-request' | 'generation-safe') =>
  page.locator(`[data-testid="demo-panel"][data-mode="${mode}"]`)

/** Waits until a panel shows `step` (clamped to its run) with its diagram drawn. */
async function panelAt(side: Locator, step: number): Promise<void> {
  const total = Number(
    /\/ (\d+)$/.exec((await side.getByTestId('panel-step').textContent()) ?? '')?.[1],
  )
  const shown = Math.min(step, total)
  await expect(side).toHaveAttribute('data-step', String(shown))
  await expect(side.getByTestId('sequence-diagram')).toHaveAttribute('data-state', 'ready')
}

test('the generation-cut demo steps both modes together: the cut (token count) in the diagram, the continued call in the lineage', async ({
  page,
}) => {
  await page.goto('/demo/generation-cut')
  await page.waitForURL(/[?&]a=[^&]+&b=[^&]+/)
  const whole = panel(page, 'whole-request')
  const safe = panel(page, 'generation-safe')
  // the same seed, the same straggler: sacrificed on the left, cut on the right
  await expect(whole.getByTestId('straggler-fate')).toHaveAttribute('data-fate', 'retired')
  await expect(safe.getByTestId('straggler-fate')).toHaveAttribute('data-fate', 'cut')
  await expect(whole.getByTestId('straggler-fate')).toContainText('sacrificed')

  // jump to the cut: one cursor moves both runs
  const cutButton = page.getByRole('button', { name: /^the cut at token \d+ \(step \d+\)$/ })
  const [, k, cutStep] =
    /token (\d+) \(step (\d+)\)/.exec((await cutButton.textContent()) ?? '') ?? []
  await cutButton.click()
  await expect(page.getByTestId('step-counter')).toHaveText(new RegExp(`^step ${cutStep} / \\d+$`))
  await panelAt(safe, Number(cutStep))
  await panelAt(whole, Number(cutStep))
  const cutMessage = safe.getByTestId('current-message')
  await expect(cutMessage).toHaveAttribute('data-label', new RegExp(`cut at token ${k}`))
  const call = /call (\S+)/.exec((await cutMessage.getAttribute('data-label')) ?? '')?.[1]
  expect(call).toBeTruthy()
  await expect(safe.getByTestId('straggler-fate')).toContainText(`cut at token ${k}`)

  // after restore the same call continues from token k: the diagram names the cut call again
  const continueButton = page.getByRole('button', { name: /^the continuation \(step \d+\)$/ })
  const continueStep = Number(/step (\d+)/.exec((await continueButton.textContent()) ?? '')?.[1])
  await continueButton.click()
  await panelAt(safe, continueStep)
  const continued = safe.getByTestId('current-message')
  await expect(continued).toHaveAttribute(
    'data-label',
    new RegExp(`from token ${k} \\(\\w+\\) \\+\\d+ call ${call}$`),
  )
  await expect(safe.getByTestId('narrative')).toContainText(`from token ${k}`)

  // at the end, the lineage shows the cut on attempt N and its continuation under N+1
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  await page.keyboard.press('End')
  const { total } = await (async () => {
    const text = (await page.getByTestId('step-counter').textContent()) ?? ''
    return { total: Number(/\/ (\d+)$/.exec(text)?.[1]) }
  })()
  await expect(page.getByTestId('step-counter')).toHaveText(`step ${total} / ${total}`)
  await panelAt(safe, total)
  const lineage = safe.getByTestId('lineage-tree')
  const cutNote = lineage.getByTestId('cut-note')
  await expect(cutNote).toHaveText(new RegExp(`cut at token ${k}$`))
  const rollout = (
    await cutNote.locator('xpath=ancestor::*[@data-attempt][1]').getAttribute('data-attempt')
  )?.replace(/\.a\d+$/, '')
  await expect(
    lineage.locator(`[data-attempt="${rollout}.a1"]`).getByTestId('continues-cut'),
  ).toContainText(`continues ${call} from token ${k}`)
  // the other mode retired the same rollout's first attempt
  await expect(
    whole.getByTestId('lineage-tree').locator(`[data-attempt="${rollout}.a0"]`),
  ).toHaveAttribute('data-status', 'retired')

  // the screenshots for the README: both modes at the cut, then at the continuation
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.setViewportSize({ width: 1400, height: 1200 })
  for (const [button, step, name] of [
    [cutButton, Number(cutStep), 'generation-cut-demo'],
    [continueButton, continueStep, 'generation-cut-continued'],
  ] as const) {
    await button.click()
    await panelAt(safe, step)
    await panelAt(whole, step)
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: `${SCREENSHOTS}${name}.png` })
  }
})

test('a generation-safe run in the inspector: prefix and continuation of the cut call in its session, its segment in the Manifests tab', async ({
  page,
  createRun,
  runPage,
}) => {
  const run = await createRun({ scenario: 'generation-safe-cut', seed: '3' })
  const straggler = 'r0'
  await page.goto(`/runs/${run.id}?tab=sessions&session=${straggler}.a1`)
  await runPage.waitForComplete()
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  await runPage.press('End')
  const { total } = await runPage.position()
  await runPage.waitForStep(total)
  const cuts = page.getByTestId('generation-cuts')
  await expect(cuts).toBeVisible()
  const row = cuts.locator('li.generation-cut').first()
  await expect(row).toHaveAttribute('data-disposition', 'durable_prefix')
  await expect(row.getByTestId('prefix-length')).toContainText(/\d+ tokens/)
  await expect(row.getByTestId('prefix-length')).toContainText(/sha256 [0-9a-f]{12}…/)
  await expect(row.getByTestId('continuation-length')).toContainText(/\d+ tokens by \S+/)
  await expect(row.getByTestId('continuation-length')).toContainText(/sha256 [0-9a-f]{12}…/)

  await runPage.openTab('Manifests')
  const segments = page.getByTestId('token-segments')
  await expect(segments).toContainText('all digests ok')
  await expect(segments.locator('li[data-status="ok"]').first()).toContainText(/\d+ tokens/)
})
