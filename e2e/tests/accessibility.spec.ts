import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { RunView } from '@cutover/core/contracts'
import { expect, test } from '../fixtures/test.ts'

const REPO = new URL('../../', import.meta.url).pathname
const DATA_DIR = resolve(REPO, process.env.E2E_DATA_DIR ?? '.cutover/e2e')

/** axe's serious and critical violations of the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
}

/** The names of form controls and buttons that more than one control on the page carries. */
async function duplicateNames(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot()
  const seen = new Map<string, number>()
  for (const line of snapshot.split('\n')) {
    const m = /^\s*- (button|textbox|combobox|checkbox|searchbox|spinbutton|slider) "([^"]*)"/.exec(
      line,
    )
    if (m) seen.set(`${m[1]} "${m[2]}"`, (seen.get(`${m[1]} "${m[2]}"`) ?? 0) + 1)
  }
  return [...seen].filter(([, n]) => n > 1).map(([name, n]) => `${name} ×${n}`)
}

test('[a11y] every page, light and dark: no serious or critical axe violation, and every control has a name of its own', async ({
  page,
  createRun,
}) => {
  test.setTimeout(240_000)
  const straggler = await createRun({ scenario: 'straggler-retirement', seed: '0' })
  const cut = await createRun({ scenario: 'generation-safe-cut', seed: '0' })
  const out = resolve(DATA_DIR, `a11y-${Date.now()}`)
  const printed = execFileSync(
    process.execPath,
    [
      'apps/api/bin/cutover.js',
      'simulate',
      '--scenario',
      'happy-path',
      '--seed',
      '3',
      '--out',
      out,
      '--json',
    ],
    { cwd: REPO, encoding: 'utf8' },
  )
  const checkpoint = (JSON.parse(printed) as { checkpoints: string[] }).checkpoints[0] as string
  const dir = (await (
    await page.request.post('/api/directories', { data: { path: checkpoint } })
  ).json()) as RunView
  const run = (tab: string) => `/runs/${straggler.id}?step=100&tab=${tab}`
  const pages = [
    '/',
    run('sessions'),
    `${run('sessions')}&message=1`,
    run('tables'),
    run('lineage'),
    run('timeline'),
    run('manifests'),
    run('invariants'),
    run('events'),
    `${run('sessions')}&present=1`,
    `/demo/straggler?run=${straggler.id}&step=100`,
    '/demo/generation-cut',
    `/diff?a=${straggler.id}&b=${cut.id}`,
    `/runs/${dir.id}`,
    `/runs/${dir.id}?tab=manifests`,
    '/no/such/page',
  ]
  // dark mode shares every component with light: its scan covers one page of each kind
  const dark = [pages[0], pages[2], pages[5], pages[10], pages[11], pages[12], pages[13]]
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const url of scheme === 'light' ? pages : (dark as string[])) {
      await page.goto(url)
      await expect(page.locator('main')).toBeVisible()
      await page.waitForLoadState('networkidle')
      // the diagram (where there is one) drawn before the scan
      const diagram = page.getByTestId('sequence-diagram').first()
      if ((await diagram.count()) > 0) await expect(diagram).toHaveAttribute('data-state', 'ready')
      for (const v of await seriousViolations(page)) found.push(`${scheme} ${url}: ${v}`)
      if (scheme === 'light')
        for (const d of await duplicateNames(page)) found.push(`${url}: duplicate name ${d}`)
    }
  }
  expect(found).toEqual([])
})

test('[a11y] the run page by keyboard alone: step, jump, open a message, present, switch tabs', async ({
  page,
  runPage,
  createRun,
}) => {
  const run = await createRun({ scenario: 'straggler-retirement', seed: '0' })
  await page.goto(`/runs/${run.id}?step=10`)
  await runPage.waitForStep(10)
  // stepping from the page
  await page.keyboard.press('ArrowRight')
  await runPage.waitForStep(11)
  // Tab reaches the diagram; Enter opens the current message
  let reached = false
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab')
    reached = await page.evaluate(
      () => document.activeElement?.getAttribute('data-testid') === 'sequence-diagram',
    )
  }
  expect(reached, 'the diagram is a tab stop').toBe(true)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('message-panel')).toHaveAttribute('data-step', '11')
  // arrows still step with the diagram focused, and the panel follows
  await page.keyboard.press('ArrowRight')
  await runPage.waitForStep(12)
  await expect(page.getByTestId('message-panel')).toHaveAttribute('data-step', '12')
  // a key moment by keyboard: focus the list, pick with the arrows
  await page.getByRole('combobox', { name: 'key moments' }).focus()
  await page.keyboard.press('ArrowDown')
  await expect.poll(async () => (await runPage.position()).step).not.toBe(12)
  await page.locator('body').focus()
  // presentation mode on and off
  await page.getByTestId('presentation-mode').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('presentation-mode')).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('presentation-mode')).toHaveAttribute('aria-pressed', 'false')
  // the tabs: ←/→ move between them
  await page.getByRole('tab', { name: 'Sessions' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('tab', { name: 'Tables' })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('End')
  await expect(page.getByRole('tab', { name: 'Events' })).toHaveAttribute('aria-selected', 'true')
  // a lineage call node is a button
  await page.getByRole('tab', { name: 'Lineage' }).click()
  const node = page.getByTestId('lineage-graph').getByRole('button').first()
  await node.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/step=\d+/)
})
