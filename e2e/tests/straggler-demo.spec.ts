import { mkdirSync } from 'node:fs'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('the straggler demo shows the retired attempt in the lineage and the stale_attempt refusal in the diagram', async ({
  page,
  runPage,
}) => {
  await page.goto('/demo/straggler')
  await page.waitForURL(/[?&]run=/)
  await runPage.waitForComplete()
  await expect(page.getByTestId('narrative')).not.toBeEmpty()
  // the demo opens at the start of the cycle; End jumps to where the whole story is known
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  await runPage.press('End')
  const { total } = await runPage.position()
  await runPage.waitForStep(total)

  // the lineage marks the straggler's first attempt as retired, and it ran again fresh
  await runPage.openTab('Lineage')
  const lineage = page.getByTestId('lineage-tree')
  const retired = lineage.locator('[data-status="retired"]')
  await expect(retired.first()).toBeVisible()
  await expect(retired.first()).toContainText('retired straggler')
  const retiredKey = await retired.first().getAttribute('data-attempt')
  const rollout = retiredKey?.split('.a')[0]
  await expect(lineage.locator(`[data-attempt="${rollout}.a1"]`)).toBeVisible()

  // find the refusal in the event log and jump to it: the diagram highlights the refused message
  await runPage.openTab('Events')
  const log = page.getByTestId('events-log')
  await log.getByRole('searchbox', { name: 'Filter events' }).fill('stale_attempt')
  const refused = log.locator('button.event-row.is-refused').first()
  await expect(refused).toBeVisible()
  const step = Number(await refused.getAttribute('data-step'))
  await refused.click()
  await runPage.waitForStep(step)
  await expect(runPage.currentMessage()).toHaveAttribute('data-label', /stale_attempt/)
  await expect(page.getByTestId('narrative')).toContainText('stale_attempt')

  // the retirement itself, one step at a time with its narrative
  await page.getByRole('searchbox', { name: 'Filter events' }).fill('model.abort_inflight')
  await log.locator('button.event-row').first().click()
  await expect(page.getByTestId('narrative')).toContainText('still generating')

  await page.getByRole('searchbox', { name: 'Filter events' }).fill('stale_attempt')
  await log.locator('button.event-row.is-refused').first().click()
  await runPage.waitForStep(step)
  // a row opens its message's panel in the narrative's column: Esc gives the column back
  await expect(page.getByTestId('message-panel')).toHaveAttribute('data-step', String(step))
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('message-panel')).toHaveCount(0)
  await expect(page.getByTestId('narrative')).toContainText('stale_attempt')
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: `${SCREENSHOTS}straggler-demo.png` })
})
