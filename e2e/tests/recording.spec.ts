import { execFile, spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { RunView } from '@cutover/core/contracts'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** The e2e server's data directory (playwright.config.ts starts it from the repo root). */
const DATA_DIR = resolve(ROOT, process.env.E2E_DATA_DIR ?? '.cutover/e2e')

/** `scripts/recorded-fleet.ts --step`: Cutover's processes behind `cutover record`, one cycle. */
class RecordedFleet {
  readonly child: ChildProcessWithoutNullStreams
  readonly work = mkdtempSync(join(tmpdir(), 'cutover-e2e-record-'))
  readonly #events: { event: string; run_id?: string; message?: string }[] = []
  readonly #waiters: (() => void)[] = []
  stderr = ''

  constructor() {
    this.child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/recorded-fleet.ts',
        '--data',
        DATA_DIR,
        '--work',
        this.work,
        '--step',
      ],
      { cwd: ROOT, env: { ...process.env }, stdio: ['pipe', 'pipe', 'pipe'] },
    )
    this.child.stderr.setEncoding('utf8').on('data', (t: string) => (this.stderr += t))
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.#events.push(JSON.parse(line) as { event: string })
      for (const wake of this.#waiters.splice(0)) wake()
    })
  }

  /** Waits for the script to report `event` (a failure throws with its message). */
  async reached(event: string): Promise<{ run_id?: string }> {
    for (;;) {
      const failed = this.#events.find((e) => e.event === 'failed')
      if (failed !== undefined) throw new Error(`${failed.message ?? ''}\n${this.stderr}`)
      const hit = this.#events.find((e) => e.event === event)
      if (hit !== undefined) return hit
      await new Promise<void>((r) => this.#waiters.push(r))
    }
  }

  /** Lets the cycle go on past a step it paused at. */
  proceed(): void {
    this.child.stdin.write('\n')
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill('SIGTERM')
    rmSync(this.work, { recursive: true, force: true })
  }
}

test('cutover import of the real stack’s unadapted run: the diagram shows the real controller’s calls, the Invariants tab names the 400 at the agent’s prepare', async ({
  page,
  runPage,
}) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'apps/api/bin/cutover.js',
      'import',
      'vendor/real_stack/d1-unadapted/exchanges.jsonl',
      '--json',
    ],
    { cwd: ROOT, env: { ...process.env, CUTOVER_DATA_DIR: DATA_DIR }, timeout: 60_000 },
  )
  const run = JSON.parse(stdout) as RunView
  expect(run.kind).toBe('recorded')
  await page.goto(`/runs/${run.id}?step=6&tab=invariants`)
  await runPage.waitForStep(6)
  await expect(page.getByTestId('recorded-badge')).toHaveText('recorded from a real controller')
  await expect(runPage.currentMessage()).toHaveAttribute(
    'data-label',
    /agent\.prepare ✗ invalid_request → 400/,
  )
  const check = page.locator('[data-check="control-accepted"]')
  await expect(check).toHaveAttribute('data-status', 'fail')
  await expect(check).toContainText('answered 400 invalid_request')
  await expect(check).toContainText('schema_version')
  await expect(page.getByTestId('unchecked-invariants')).toContainText('equivalence')
  await page.screenshot({ path: `${SCREENSHOTS}recorded-import.png`, fullPage: true })
})

test('cutover record in front of Cutover’s processes: the run streams live while cutover checkpoint drives the cycle through the proxies, then its diagram, cards, Events and checkpoint directory show what happened', async ({
  page,
  runPage,
}) => {
  test.setTimeout(240_000)
  mkdirSync(SCREENSHOTS, { recursive: true })
  const fleet = new RecordedFleet()
  try {
    const { run_id: runId } = await fleet.reached('ready')
    if (runId === undefined) throw new Error('no run id')
    await fleet.reached('prepare')

    // Live: the run is listed and followed while the recorder records.
    const listed = (await (await page.request.get('/api/runs')).json()) as { runs: RunView[] }
    expect(listed.runs.find((r) => r.id === runId)).toMatchObject({
      kind: 'recorded',
      status: 'running',
    })
    await page.goto(`/runs/${runId}`)
    await expect(page.getByTestId('recorded-badge')).toHaveText('recorded from a real controller')
    await expect(page.getByTestId('recording-live')).toBeVisible()
    await expect(page.getByText('● following live')).toBeVisible()
    await expect(runPage.diagram).toHaveAttribute('data-state', 'ready')
    await expect(runPage.diagram).toContainText('agent.prepare')
    await expect(
      page.locator('[data-testid="participant-card"][data-participant="policy_model"]'),
    ).toHaveAttribute('data-phase', 'prepared')
    await page.screenshot({ path: `${SCREENSHOTS}recorded-live.png` })
    const before = (await runPage.position()).total
    fleet.proceed()
    await fleet.reached('commit')
    // The commits stream in without a reload.
    await expect(runPage.diagram).toContainText('resources.commit', { timeout: 30_000 })
    expect((await runPage.position()).total).toBeGreaterThan(before)
    fleet.proceed()
    await fleet.reached('resume')
    fleet.proceed()
    await fleet.reached('done')

    // After: the recording is closed, the whole cycle is there.
    await runPage.waitForComplete()
    await expect(page.getByTestId('recording-live')).toHaveCount(0)
    const done = (await (await page.request.get(`/api/runs/${runId}`)).json()) as RunView
    const restore = await page.request.get(`/api/runs/${runId}/events?type=model.restore&limit=1`)
    const restoreStep = ((await restore.json()) as { events: { step: number }[] }).events[0]?.step
    expect(restoreStep).toBeGreaterThan(0)
    await page.goto(`/runs/${runId}?step=${restoreStep}`)
    await runPage.waitForStep(restoreStep as number)
    await expect(runPage.currentMessage()).toHaveAttribute('data-label', /model\.restore/)
    const model = page.locator('[data-testid="participant-card"][data-participant="policy_model"]')
    await expect(model).toHaveAttribute('data-phase', 'restored_paused')
    await expect(runPage.participantCards).toHaveCount(6)
    await page.screenshot({ path: `${SCREENSHOTS}recorded-run.png` })

    // Events: each exchange whole, request and answer.
    await runPage.openTab('Events')
    const exchange = page.getByTestId('recorded-exchange')
    await expect(exchange).toContainText('POST /ng-control/v1/model-checkpoint/restore')
    await expect(exchange).toContainText('"checkpoint_id": "ck-rec"')
    await expect(exchange).toContainText('"tombstones"')
    // The data plane is recorded too: the agent's model calls.
    await page.getByRole('searchbox', { name: 'Filter events' }).fill('model.request')
    await expect(page.getByTestId('events-log')).toContainText('agent → policy_model')
    await page.getByRole('searchbox', { name: 'Filter events' }).fill('')
    await page.screenshot({ path: `${SCREENSHOTS}recorded-events.png`, fullPage: true })

    // Invariants: the checks a black box allows.
    await runPage.openTab('Invariants')
    for (const id of [
      'control-accepted',
      'prepared-before-commit',
      'resume-after-restore',
      'fenced-attempt-silent',
    ])
      await expect(page.locator(`[data-check="${id}"]`)).toHaveAttribute('data-status', 'pass')
    const failing = (done.recording?.checks ?? [])
      .filter((c) => c.status === 'fail')
      .map((c) => c.id)
    expect(failing).toEqual([])

    // Manifests: the directory the commits named, opened with the directory inspector.
    await runPage.openTab('Manifests')
    const dir = page.getByTestId('recorded-directory')
    await expect(dir).toContainText('ck-rec')
    await expect(dir).toContainText('published')
    await dir.getByRole('button', { name: 'Open in the directory inspector' }).click()
    await page.waitForURL(/\/runs\/dir[0-9a-f]{16}/)
    await expect(page.getByTestId('directory-verdict')).toBeVisible()
    for (const tab of ['Manifests', 'Sessions', 'Tables', 'Lineage'])
      await expect(page.getByRole('tab', { name: tab })).toBeVisible()
    await page.getByRole('tab', { name: 'Sessions' }).click()
    await expect(page.getByTestId('sessions-table')).toBeVisible()
    await page.screenshot({ path: `${SCREENSHOTS}recorded-directory.png` })
  } finally {
    fleet.stop()
  }
})
