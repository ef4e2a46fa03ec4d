import { mkdirSync } from 'node:fs'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('a Workplace session opened in Tables after restore shows the rows its tool calls changed', async ({
  page,
  createRun,
  runPage,
}) => {
  const run = await createRun({ scenario: 'happy-path' })
  await page.goto(`/runs/${run.id}?step=${run.events}&tab=tables`)
  await runPage.waitForStep(run.events)
  const view = page.getByTestId('tables-view')
  const picker = view.getByRole('combobox', { name: 'Workplace session' })

  // the continued attempts (.a1) ran their tool calls after restore: find one whose tables changed
  const continued = (
    await picker
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
  ).filter((key) => key.endsWith('.a1'))
  expect(continued.length).toBeGreaterThan(0)
  let marked = 0
  for (const key of continued) {
    await picker.selectOption(key)
    await expect(page).toHaveURL(new RegExp(`session=${key.replace('.', '\\.')}`))
    await expect(view.locator('.table-diff').first()).toBeVisible()
    marked = await view
      .locator('tr[data-status="changed"], tr[data-status="added"], tr[data-status="removed"]')
      .count()
    if (marked > 0) break
  }
  expect(marked, 'rows changed since prepare are marked').toBeGreaterThan(0)
  const changedCells = view.locator('td[data-changed]')
  if ((await view.locator('tr[data-status="changed"]').count()) > 0) {
    await expect(changedCells.first()).toBeVisible()
    // a changed cell says what it was: old → new
    await expect(
      view.locator('tr[data-status="changed"] td[data-changed] del.cell-was').first(),
    ).toBeVisible()
  }

  // a changed row links to the step of the request that changed it: that step's event is a request
  // of this rollout
  const link = view.getByTestId('row-changed-at').first()
  await expect(link).toBeVisible()
  const linked = Number(/step (\d+)/.exec((await link.textContent()) ?? '')?.[1])
  const session = new URL(page.url()).searchParams.get('session') ?? ''
  await link.click()
  await runPage.waitForStep(linked)
  await expect(page).toHaveURL(
    new RegExp(
      `tab=tables.*session=${session.replace('.', '\\.')}|session=${session.replace('.', '\\.')}.*tab=tables`,
    ),
  )
  await expect(page.getByTestId('current-session')).toHaveText(
    new RegExp(`^${session.split('.')[0]}\\.a\\d+$`),
  )
  await expect(page.locator('.current-event')).toContainText('env.request')
  // the baseline is named in the tab, and in the Sessions detail beside the same links
  await expect(view).toContainText(/vs (prepare snapshot|base tables)/)
  await page.goto(`/runs/${run.id}?step=${run.events}&session=${session}`)
  await runPage.waitForStep(run.events)
  await expect(page.getByTestId('row-changes')).toContainText(
    /differ from the (prepare snapshot|base tables)/,
  )
  await expect(page.getByTestId('row-changes').getByTestId('row-changed-at').first()).toBeVisible()
  await page.goto(`/runs/${run.id}?step=${run.events}&tab=tables&session=${session}`)
  await runPage.waitForStep(run.events)

  // "show all rows" brings the untouched rows back
  const before = await view.locator('tbody tr').count()
  await view.getByRole('checkbox', { name: 'Show all rows' }).check()
  expect(await view.locator('tbody tr').count()).toBeGreaterThan(before)
  await view.getByRole('checkbox', { name: 'Show all rows' }).uncheck()

  mkdirSync(SCREENSHOTS, { recursive: true })
  await view.locator('tr[data-status]').first().scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENSHOTS}tables-tab.png` })
})
