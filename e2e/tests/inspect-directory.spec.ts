import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from '../fixtures/test.ts'

const REPO = new URL('../../', import.meta.url).pathname
const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname
// The server's data directory (playwright.config.ts): directories under it may be opened.
const DATA_DIR = resolve(REPO, process.env.E2E_DATA_DIR ?? '.cutover/e2e')

test('a directory written by cutover simulate --out, opened by path: Workplace tables, then one flipped byte shown on its file', async ({
  page,
}) => {
  const out = join(DATA_DIR, `simulated-${Date.now()}`)
  rmSync(out, { recursive: true, force: true })
  const printed = execFileSync(
    process.execPath,
    [
      'apps/api/bin/cutover.js',
      'simulate',
      '--scenario',
      'happy-path',
      '--seed',
      '11',
      '--rollouts',
      '9',
      '--out',
      out,
      '--json',
    ],
    {
      cwd: REPO,
      encoding: 'utf8',
    },
  )
  const checkpoint = (JSON.parse(printed) as { checkpoints: string[] }).checkpoints[0] as string
  expect(checkpoint.startsWith(out)).toBe(true)

  // open it from the home page form
  await page.goto('/')
  const form = page.getByTestId('open-directory')
  await form.getByRole('textbox', { name: /Directory path/ }).fill(checkpoint)
  await form.getByRole('button', { name: 'Open read-only' }).click()
  await page.waitForURL(/\/runs\/dir[0-9a-f]{16}/)
  await expect(page.getByRole('heading', { name: /Checkpoint directory/ })).toContainText(
    checkpoint,
  )
  await expect(page.getByTestId('directory-verdict')).toHaveText('✓ verifies')
  await expect(page.getByText('A bare directory has no trace')).toBeVisible()

  // sessions from the snapshots: a Blackjack hand with its RNG position
  const sessions = page.getByTestId('sessions-table')
  await expect(sessions).toBeVisible()
  await sessions
    .getByText(/rng \d+\/624/)
    .first()
    .click()
  await expect(page.getByText('RNG position')).toBeVisible()

  // the Workplace session tables
  await page.getByRole('tab', { name: 'Tables' }).click()
  const tables = page.getByTestId('tables-view')
  await expect(tables.locator('.table-diff').first()).toBeVisible()
  await expect(tables.locator('[data-table="emails"]')).toBeVisible()
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}directory-tables.png` })

  // flip one byte of one Workplace snapshot and open the same directory again
  const folder = join(checkpoint, 'resources', 'workplace')
  const victim = readdirSync(folder).find((name) => name !== 'manifest.json') as string
  const bytes = readFileSync(join(folder, victim))
  bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] ?? 0) ^ 0x01
  writeFileSync(join(folder, victim), bytes)

  await page.goto('/')
  await form.getByRole('textbox', { name: /Directory path/ }).fill(checkpoint)
  await form.getByRole('button', { name: 'Open read-only' }).click()
  await page.waitForURL(/\/runs\/dir[0-9a-f]{16}/)
  await expect(page.getByTestId('directory-verdict')).toContainText('problem')
  // the damaged session is still in Sessions, marked with its problem and file
  const damagedRow = page
    .getByTestId('sessions-table')
    .locator(`[role="row"][data-session="${victim.replace(/\.json$/, '')}"]`)
  await expect(damagedRow).toHaveAttribute('data-problem', 'digest_mismatch')
  await expect(page.getByTestId('damaged-sessions')).toContainText(`resources/workplace/${victim}`)
  await damagedRow.click()
  await expect(page.getByTestId('session-problem')).toContainText('digest_mismatch')
  await page.screenshot({ path: `${SCREENSHOTS}directory-damaged.png` })
  // the problem badge opens the Manifests tab at that file
  await page.getByTestId('directory-verdict').click()
  await expect(page.getByRole('tab', { name: 'Manifests' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(
    page.getByRole('region', { name: `File resources/workplace/${victim}` }),
  ).toBeVisible()
  const problem = page.locator(
    `[data-testid="directory-problem"][data-path="resources/workplace/${victim}"]`,
  )
  await expect(problem).toHaveAttribute('data-code', 'digest_mismatch')
  await expect(
    page
      .getByTestId('manifests-view')
      .locator(`li.file[data-path="resources/workplace/${victim}"]`),
  ).toContainText('digest_mismatch')
  // the damaged file opens as it is on disk
  await page
    .getByTestId('manifests-view')
    .locator(`li.file[data-path="resources/workplace/${victim}"] button`)
    .click()
  await expect(
    page.getByRole('region', { name: `File resources/workplace/${victim}` }),
  ).toBeVisible()

  // the directory's own timeline ends with the marker
  await page.getByRole('tab', { name: 'Timeline' }).click()
  await expect(page.getByTestId('directory-timeline').locator('tbody tr').last()).toHaveAttribute(
    'data-path',
    'checkpoint.json',
  )
})

test('a path that is not a checkpoint directory, and one outside the allowed roots, are refused with their codes', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/')
  const form = page.getByTestId('open-directory')
  await form.getByRole('textbox', { name: /Directory path/ }).fill(DATA_DIR)
  await form.getByRole('button', { name: 'Open read-only' }).click()
  await expect(page.getByRole('alert')).toContainText('not_a_checkpoint_directory')
  await form.getByRole('textbox', { name: /Directory path/ }).fill('/etc')
  await form.getByRole('button', { name: 'Open read-only' }).click()
  await expect(page.getByRole('alert')).toContainText('path_not_allowed')
  // the refusal names the roots it may open
  await expect(page.getByRole('alert')).toContainText(/cutover inspect\): the data directory/)
  await expect(page).toHaveURL(/\/$/)
  // the browser logs each refused request; those two were asked for
  const refused = consoleErrors.filter((e) => /status of (400|403)/.test(e))
  expect(refused).toHaveLength(2)
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !refused.includes(e)),
  )
})

test("a generation-safe checkpoint opened by path: its token-store segment with digest status, the ledger's cut at token k, and the cut call in the lineage", async ({
  page,
}) => {
  const out = join(DATA_DIR, `generation-safe-${Date.now()}`)
  rmSync(out, { recursive: true, force: true })
  const printed = execFileSync(
    process.execPath,
    [
      'apps/api/bin/cutover.js',
      'simulate',
      '--scenario',
      'generation-safe-cut',
      '--seed',
      '0',
      '--out',
      out,
      '--json',
    ],
    { cwd: REPO, encoding: 'utf8' },
  )
  const checkpoint = (JSON.parse(printed) as { checkpoints: string[] }).checkpoints[0] as string

  await page.goto('/')
  const form = page.getByTestId('open-directory')
  await form.getByRole('textbox', { name: /Directory path/ }).fill(checkpoint)
  await form.getByRole('button', { name: 'Open read-only' }).click()
  await page.waitForURL(/\/runs\/dir[0-9a-f]{16}/)
  await expect(page.getByTestId('directory-verdict')).toHaveText('✓ verifies')

  await page.getByRole('tab', { name: 'Manifests' }).click()
  const segment = page.getByTestId('token-segments').locator('li[data-call="policy-call-000001"]')
  await expect(segment).toHaveAttribute('data-status', 'ok')
  await expect(segment).toContainText('digest ok')
  const cut = page.getByTestId('generation-cuts').locator('li[data-call="policy-call-000001"]')
  await expect(cut).toHaveAttribute('data-disposition', 'durable_prefix')
  await expect(cut).toContainText(/cut at token \d+/)
  const k = /cut at token (\d+)/.exec((await cut.textContent()) ?? '')?.[1] as string
  await expect(cut.getByTestId('prefix-length')).toContainText(`${k} tokens`)
  // the segment opens as it is on disk
  await segment.getByRole('button').click()
  await expect(
    page.getByRole('region', { name: 'File token-store/segments/policy-call-000001.seg-0.json' }),
  ).toBeVisible()
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}directory-generation-cut.png` })

  // the lineage: the cut call of attempt 0, marked with its token k
  await page.getByRole('tab', { name: 'Lineage' }).click()
  await expect(page.getByTestId('lineage-tree')).toContainText(`cut at token ${k}`)
})
