import { mkdirSync, readFileSync } from 'node:fs'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('a run with a bug shows its broken invariant, and "first failing step" lands on it', async ({
  page,
  runPage,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/')
  const form = page.getByRole('form', { name: 'New run' })
  await form.getByRole('combobox', { name: /^Bug/ }).selectOption('call-ids-reused')
  await expect(form.locator('.bug-narrative')).toContainText('call-id-unique fails')
  // a fault that never fires is accepted and reported on the run
  await form
    .getByRole('textbox', { name: /^Faults/ })
    .fill('[{"kind": "crash_after_write", "k": 5000}]')
  await form.getByRole('button', { name: 'Start run' }).click()
  await page.waitForURL(/\/runs\/[^/?]+/)
  await runPage.waitForComplete()
  await expect(page.getByTestId('bug-badge')).toHaveText('bug: call-ids-reused')
  await expect(page.getByTestId('inert-fault')).toContainText('this fault had no effect')
  await expect(page.getByTestId('fault-chip')).toHaveText('crash at write 5000 · no effect')

  await runPage.openTab('Invariants')
  const row = page.locator('[data-invariant="call-id-unique"]')
  await expect(row).toHaveAttribute('data-status', 'fail')
  const lead = page.getByTestId('first-failure')
  await expect(lead).toContainText('call-id-unique first fails at step')
  await expect(lead).toContainText('the bug call-ids-reused at work')
  const step = Number(/at step (\d+)/.exec((await lead.textContent()) ?? '')?.[1])
  await lead.getByRole('button', { name: `go to step ${step} →` }).click()
  await runPage.waitForStep(step)
  await expect(row).toHaveAttribute('data-status', 'fail')
  await expect(row).toContainText(`first failing step ${step}`)
  // one step earlier it still passed: the failure is this step's event
  await runPage.press('ArrowLeft')
  await runPage.waitForStep(step - 1)
  await expect(row).toHaveAttribute('data-status', 'pass')
  await runPage.press('ArrowRight')
  await runPage.waitForStep(step)
  // the failing message is marked in the diagram and named in the event line
  await expect(
    runPage.diagram.locator('text.messageText[data-failure="true"]').first(),
  ).toBeVisible()
  await expect(page.getByTestId('event-failure')).toContainText('call-id-unique fails here')
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}teaching-bug.png` })
})

test('the SVG export holds the messages of the drawn window, with the participant boxes', async ({
  page,
  homePage,
  runPage,
}) => {
  await homePage.open()
  await homePage.runScenario('happy-path')
  await runPage.waitForComplete()
  await runPage.waitForStep((await runPage.position()).total)
  // one text per drawn line of a label (labels wrap)
  const drawn = await runPage.diagram.locator('.diagram-canvas text.messageText').count()
  expect(drawn).toBeGreaterThan(5)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'SVG', exact: true }).click(),
  ])
  const svg = readFileSync((await download.path()) ?? '', 'utf8')
  expect(svg.startsWith('<svg')).toBe(true)
  expect(svg.match(/class="messageText[^"]*"/g)?.length).toBe(drawn)
  expect(svg).toContain('actor-top')
})

test('"next phase" walks the phases of a straggler run, and "previous phase" walks back', async ({
  page,
  homePage,
  runPage,
}) => {
  await homePage.open()
  await homePage.runScenario('straggler-retirement')
  await runPage.waitForComplete()
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  await runPage.press('Home')
  await runPage.waitForStep(0)
  const next = page.getByRole('button', { name: 'next phase' })
  const seen: string[] = []
  let last = 0
  while (await next.isEnabled()) {
    await next.click()
    await expect(runPage.stepCounter).not.toHaveText(new RegExp(`^step ${last} /`))
    const { step } = await runPage.position()
    expect(step).toBeGreaterThan(last)
    last = step
    await runPage.waitForStep(step)
    const phase = (await page.locator('.current-event .phase-chip').textContent()) ?? ''
    if (seen.at(-1) !== phase) seen.push(phase)
    // the current-event line names the rollout and attempt when the event has one
    if (await page.getByTestId('current-session').count())
      await expect(page.getByTestId('current-session')).toHaveText(/^r\d+(\.a\d+)?$/)
  }
  // retirement happens inside prepare (the straggler is retired, then prepare finishes): the walk
  // visits each phase of the cycle in order of first appearance
  expect([...new Set(seen)].slice(0, 5)).toEqual([
    'prepare',
    'retire',
    'commit',
    'restore',
    'resume',
  ])
  await page.getByRole('button', { name: 'previous phase' }).click()
  await expect.poll(async () => (await runPage.position()).step).toBeLessThan(last)
})

test('key moments jump to the straggler retirement; next/previous event of the selected rollout stay on it', async ({
  page,
  homePage,
  runPage,
}) => {
  await homePage.open()
  const id = await homePage.runScenario('straggler-retirement')
  await runPage.waitForComplete()
  const moments = page.getByRole('combobox', { name: 'key moments' })
  const retired = moments.locator('option', { hasText: 'straggler r0.a0 retired' })
  const step = Number(await retired.getAttribute('value'))
  await moments.selectOption(String(step))
  await runPage.waitForStep(step)
  await expect(page.getByTestId('current-session')).toHaveText('r0.a0')

  // a finished run opened without a step opens at its first key moment, the retirement; a step in
  // the URL wins
  await page.goto(`/runs/${id}`)
  await runPage.waitForStep(step)
  await expect(page).toHaveURL(new RegExp(`step=${step}`))
  await page.goto(`/runs/${id}?step=1&session=r0.a0`)
  await runPage.waitForStep(1)
  for (let i = 0; i < 4; i++) {
    await page.getByRole('button', { name: 'next event of r0' }).click()
    await expect(page.getByTestId('current-session')).toHaveText(/^r0\.a\d+$/)
  }
  const at = (await runPage.position()).step
  await page.getByRole('button', { name: 'previous event of r0' }).click()
  await expect.poll(async () => (await runPage.position()).step).toBeLessThan(at)
  await expect(page.getByTestId('current-session')).toHaveText(/^r0\.a\d+$/)

  // Lineage and Manifests open on the session named in the URL
  await page.goto(`/runs/${id}?tab=lineage&session=r1.a1`)
  await expect(page.getByRole('searchbox', { name: 'Filter rollouts' })).toHaveValue('r1')
  await page.goto(`/runs/${id}?tab=manifests&session=r1.a1`)
  await expect(page.getByRole('searchbox', { name: 'Search files' })).toHaveValue('r1.')
  await expect(page.locator('.file-view h3')).toHaveText(/r1\.a0\.json$/)
})
