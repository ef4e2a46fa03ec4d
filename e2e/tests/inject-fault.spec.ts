import { mkdirSync } from 'node:fs'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('inject a straggler at a stepped-to event of a happy-path run: the new run opens at the same step and retires it', async ({
  page,
  createRun,
  request,
  consoleErrors,
}) => {
  const happy = await createRun({ scenario: 'happy-path', seed: '21' })
  expect(happy.faults).toEqual([])
  const { events } = (await (await request.get(`/api/runs/${happy.id}/events`)).json()) as {
    events: TraceEvent[]
  }
  const dispatch = events.find((e) => e.type === 'run.dispatch' && e.payload.rollout_id === 'r0')
  if (!dispatch) throw new Error('happy-path should dispatch r0')
  const step = dispatch.step

  await page.goto(`/runs/${happy.id}?step=${step}`)
  await expect(page.getByTestId('current-session')).toHaveText('r0.a0')
  const inject = page.getByTestId('inject-fault')
  const offer = inject.getByRole('combobox', { name: /Inject here/ })
  await expect(offer.locator('option')).toHaveCount(2)
  await offer.selectOption({
    label: "straggler: r0's model call still generating at the prepare deadline",
  })

  // a fault the API refuses shows its message (here the request is rewritten to name a rollout the
  // run lacks)
  await page.route('**/api/runs', async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as {
      faults: { rollout?: string }[]
    }
    await route.continue({
      postData: JSON.stringify({
        ...body,
        faults: body.faults.map((f) => ({ ...f, rollout: 'r999' })),
      }),
    })
  })
  await inject.getByRole('button', { name: 'Run with this fault' }).click()
  const refusal = page.getByRole('alert').filter({ hasText: 'Could not create the new run' })
  await expect(refusal).toContainText('invalid_request')
  await expect(refusal).toContainText('r999')
  expect(page.url()).toContain(`/runs/${happy.id}`)
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((m) => !/status of 400/.test(m)),
  )
  await page.unroute('**/api/runs')

  await inject.getByRole('button', { name: 'Run with this fault' }).click()
  await page.waitForURL(
    (url) =>
      url.pathname !== `/runs/${happy.id}` &&
      url.pathname.startsWith('/runs/') &&
      url.searchParams.get('step') === String(step),
  )
  const id = new URL(page.url()).pathname.split('/').pop() ?? ''
  const created = (await (await request.get(`/api/runs/${id}`)).json()) as RunView
  expect(created).toMatchObject({
    scenario: 'happy-path',
    seed: '21',
    rollouts: happy.rollouts,
    deadline_ms: happy.deadline_ms,
    faults: [{ kind: 'straggler', rollout: 'r0' }],
  })

  const chip = page.getByTestId('fault-chip')
  await expect(chip).toHaveCount(1)
  await expect(chip).toHaveAttribute('data-kind', 'straggler')
  await expect(page.getByTestId('current-session')).toHaveText('r0.a0')
  // the fault's effect: r0 is retired as a straggler (a key moment) and every invariant still holds
  await expect(
    page
      .getByRole('combobox', { name: 'key moments' })
      .locator('option', { hasText: 'straggler r0.a0 retired' }),
  ).toHaveCount(1, { timeout: 60_000 })
  await expect(page.locator('.inv-summary')).toHaveClass(/is-pass/)
  // the screenshot shows the new run at the retirement, its fault chip and the control offering the
  // next fault
  const moments = page.getByRole('combobox', { name: 'key moments' })
  await moments.selectOption({
    label:
      (await moments.locator('option', { hasText: 'straggler r0.a0 retired' }).textContent()) ?? '',
  })
  await expect(page.locator('.current-event')).toContainText('rollout.retired')
  await expect(page.getByTestId('inject-fault')).toBeVisible()
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}inject-fault.png`, fullPage: false })

  // the chip is editable: removing it runs the same config without the fault, at the step shown
  const shown = new URL(page.url()).searchParams.get('step')
  expect(Number(shown)).toBeGreaterThan(step)
  await chip.getByRole('button', { name: /Run without this fault/ }).click()
  await page.waitForURL(
    (url) => url.pathname !== `/runs/${id}` && url.searchParams.get('step') === shown,
  )
  await expect(page.getByTestId('fault-chip')).toHaveCount(0)
})

test('any event in the Events tab offers its faults: clicking a row makes it current and the tab shows what can break there', async ({
  page,
  createRun,
}) => {
  const happy = await createRun({ scenario: 'happy-path', seed: '21' })
  await page.goto(`/runs/${happy.id}?step=1&tab=events`)
  const log = page.getByTestId('events-log')
  await log.getByRole('searchbox', { name: 'Filter events' }).fill('run.dispatch')
  const row = log.locator('.event-row', { hasText: '"r1"' }).first()
  await row.click()
  await expect(page.getByTestId('current-session')).toHaveText('r1.a0')
  const inject = log.getByTestId('inject-fault-events')
  await expect(
    inject
      .getByRole('combobox', { name: /Inject here/ })
      .locator('option', { hasText: "straggler: r1's model call" }),
  ).toHaveCount(1)
  await expect(inject.getByRole('button', { name: 'Run with this fault' })).toBeEnabled()
})
