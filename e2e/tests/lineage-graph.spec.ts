import { mkdirSync } from 'node:fs'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('the Lineage tab draws the graph with the relay edge from N to N+1 and the retired straggler marked', async ({
  page,
  createRun,
  runPage,
}) => {
  const run = await createRun({ scenario: 'straggler-retirement', seed: '4' })
  await page.goto(`/runs/${run.id}?step=${run.events}&tab=lineage`)
  await runPage.waitForStep(run.events)
  const graph = page.getByTestId('lineage-graph')
  await expect(graph).toBeVisible()
  const relays = graph.getByTestId('relay-edge')
  await expect(relays.first()).toBeVisible()
  expect(await relays.count()).toBeGreaterThan(0)
  await expect(graph.locator('[data-status="retired"]').first()).toContainText('retired straggler')
  // the list view is still there, and filtering narrows the graph
  await page.getByRole('searchbox', { name: 'Filter rollouts' }).fill('r0')
  await expect(graph.locator('g[data-rollout]')).toHaveCount(1)
  await page.getByRole('searchbox', { name: 'Filter rollouts' }).fill('')
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.getByTestId('lineage-tree').scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENSHOTS}lineage-graph.png` })
})
