import { mkdirSync } from 'node:fs'
import type { RunDiffView } from '@cutover/core/contracts'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('happy-path vs straggler-retirement at the same seed: "Compare with…" stops at the first divergence', async ({
  page,
  createRun,
  request,
}) => {
  const happy = await createRun({ scenario: 'happy-path', seed: '21' })
  const straggler = await createRun({ scenario: 'straggler-retirement', seed: '21' })
  const expected = (await (
    await request.get(`/api/diff?a=${happy.id}&b=${straggler.id}`)
  ).json()) as RunDiffView
  expect(expected.identical).toBe(false)
  const first = expected.first_divergence
  if (first === null) throw new Error('the runs should differ')

  await page.goto(`/runs/${happy.id}`)
  const compare = page.getByRole('form', { name: 'Compare with another run' })
  await compare.getByRole('combobox', { name: /Compare with/ }).selectOption(straggler.id)
  await compare.getByRole('button', { name: 'Compare' }).click()
  await page.waitForURL(new RegExp(`/diff\\?a=${happy.id}&b=${straggler.id}$`))

  const view = page.getByTestId('diff-view')
  await expect(view).toHaveAttribute('data-identical', 'false')
  await expect(page.getByTestId('first-divergence')).toHaveText(
    `First divergence: step ${first.step_a} of A, step ${first.step_b} of B`,
  )
  // both events side by side, each naming its run and step
  await expect(page.getByRole('region', { name: `Run A at step ${first.step_a}` })).toContainText(
    first.a?.type ?? 'no event here',
  )
  await expect(page.getByRole('region', { name: `Run B at step ${first.step_b}` })).toContainText(
    first.b?.type ?? 'no event here',
  )
  await expect(page.getByRole('region', { name: 'Participants that differ there' })).toBeVisible()
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}diff-runs.png`, fullPage: false })

  // a run against itself is identical
  await page.goto(`/diff?a=${happy.id}&b=${happy.id}`)
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-identical', 'true')
})
