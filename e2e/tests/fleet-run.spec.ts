import { execFile } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** The e2e server's data directory (playwright.config.ts starts it from the repo root). */
const DATA_DIR = resolve(ROOT, process.env.E2E_DATA_DIR ?? '.cutover/e2e')

interface FleetReport {
  run_id: string
  events: number
  retired: string[]
  processes: { participant: string; pid: number; role: 'original' | 'replacement' }[]
}

test('a run recorded by cutover fleet is listed with its marker and opens with the processes badge, PIDs, the retired straggler and every invariant passing', async ({
  page,
  runPage,
}) => {
  // The user's terminal: the built CLI records a fleet run into the server's data directory.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'apps/api/bin/cutover.js',
      'fleet',
      '--scenario',
      'straggler-retirement',
      '--seed',
      '7',
      '--rollouts',
      '9',
      '--json',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, CUTOVER_DATA_DIR: DATA_DIR },
      timeout: 60_000,
    },
  )
  const report = JSON.parse(stdout) as FleetReport
  // r1 is the straggler; on a loaded machine another slow rollout may be retired with it.
  expect(report.retired).toContain('r1')
  const pids = new Set(report.processes.map((p) => p.pid))
  const replacement = (participant: string) =>
    report.processes.find((p) => p.participant === participant && p.role === 'replacement')?.pid

  // The runs list marks it as recorded from processes.
  await page.goto('/')
  const row = page.locator(`tr[data-run="${report.run_id}"]`)
  await expect(row.getByTestId('run-kind')).toHaveText('processes')
  await row.getByRole('link', { name: report.run_id }).click()
  await page.waitForURL(new RegExp(`/runs/${report.run_id}`))

  await expect(page.getByTestId('recorded-badge')).toHaveText('recorded from processes')
  // Its command is cutover fleet's (a simulation would be another run), and it offers no fault to
  // inject.
  await expect(page.getByRole('button', { name: 'Copy as cutover fleet' })).toHaveAttribute(
    'title',
    `npx cutover fleet --scenario straggler-retirement --seed 7 --rollouts 9`,
  )
  await runPage.waitForComplete()
  // Every card names the OS process that held its role; at the end those are the replacements.
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  await runPage.press('End')
  await runPage.waitForStep(report.events)
  // The five participant processes carry a PID (the controller is cutover fleet itself: no card
  // PID).
  const pidLines = runPage.participantCards.locator('.participant-pid')
  await expect(pidLines).toHaveCount(5)
  for (const line of await pidLines.all()) {
    const text = (await line.textContent()) ?? ''
    expect(pids.has(Number(/^pid (\d+)$/.exec(text)?.[1])), text).toBe(true)
  }
  await expect(
    page.locator('[data-testid="participant-card"][data-participant="agent"] .participant-pid'),
  ).toHaveText(`pid ${replacement('agent')}`)

  // The straggler r1 was retired over HTTP and ran again as attempt 1.
  await runPage.openTab('Lineage')
  const lineage = page.getByTestId('lineage-tree')
  await expect(
    lineage.locator('[data-status="retired"][data-attempt="r1.a0"]').first(),
  ).toContainText('retired straggler')
  await expect(lineage.locator('[data-attempt="r1.a1"]').first()).toBeVisible()

  // Every invariant passes over the merged trace.
  await runPage.openTab('Invariants')
  const invariants = page.getByTestId('invariants-view').locator('[data-invariant]')
  await expect(invariants.first()).toBeVisible()
  expect(await invariants.count()).toBeGreaterThan(0)
  await expect(invariants.and(page.locator(':not([data-status="pass"])'))).toHaveCount(0)

  // The screenshot for the README: the diagram at the straggler's retirement, the lineage below.
  await runPage.openTab('Events')
  await expect(page.getByTestId('inject-fault-events')).toContainText('recorded from processes')
  const log = page.getByTestId('events-log')
  await log.getByRole('searchbox', { name: 'Filter events' }).fill('agent.retire "r1"')
  const retire = log.locator('button.event-row').first()
  await expect(retire).toBeVisible()
  const step = Number(await retire.getAttribute('data-step'))
  await retire.click()
  await runPage.waitForStep(step)
  await expect(runPage.currentMessage()).toHaveAttribute('data-label', /agent.retire r1.a0/)
  await runPage.openTab('Lineage')
  await expect(
    lineage.locator('[data-status="retired"][data-attempt="r1.a0"]').first(),
  ).toBeVisible()
  await page.evaluate(() => window.scrollTo(0, 0))
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}fleet-run.png`, fullPage: true })
})
