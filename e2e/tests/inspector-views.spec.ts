import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'
import type { EventsRange, RunView } from '@cutover/core/contracts'
import { expect, test } from '../fixtures/test.ts'
import type { RunPage } from '../fixtures/RunPage.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

/** The first step of an event type in a run (asked of the API, as the page would). */
async function stepOf(page: Page, run: RunView, type: string, rollout?: string): Promise<number> {
  const only = rollout === undefined ? '' : `&rollout=${rollout}`
  const range = (await (
    await page.request.get(`/api/runs/${run.id}/events?type=${type}&limit=1${only}`)
  ).json()) as EventsRange
  const event = range.events[0]
  if (!event) throw new Error(`run ${run.id} has no ${type}`)
  return event.step
}

/** No horizontal page scroll: the document is no wider than the window. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(scroll, 'page width vs window width').toBeLessThanOrEqual(client)
}

/** The current message is legible (≥ 11 CSS px) and wholly inside the window. */
async function expectCurrentLegibleInView(runPage: RunPage): Promise<void> {
  const { fontPx, box, viewport } = await runPage.measureCurrent()
  expect(fontPx, 'current label size in CSS px').toBeGreaterThanOrEqual(11)
  expect(box.top).toBeGreaterThanOrEqual(0)
  expect(box.left).toBeGreaterThanOrEqual(0)
  expect(box.bottom).toBeLessThanOrEqual(viewport.height)
  expect(box.right).toBeLessThanOrEqual(viewport.width)
}

/**
 * The payload panel is wholly inside the window, and so is the current message, left of the panel
 * (the panel docks beside the diagram, it does not cover it).
 */
async function expectPanelBesideCurrent(page: Page, runPage: RunPage): Promise<void> {
  const panel = page.getByTestId('message-panel')
  await expect(panel.getByTestId('message-payload')).toBeVisible()
  const box = (await panel.boundingBox()) as { x: number; y: number; width: number; height: number }
  const viewport = page.viewportSize() as { width: number; height: number }
  expect(box.y, 'panel top').toBeGreaterThanOrEqual(0)
  expect(box.x, 'panel left').toBeGreaterThanOrEqual(0)
  expect(box.y + box.height, 'panel bottom').toBeLessThanOrEqual(viewport.height)
  expect(box.x + box.width, 'panel right').toBeLessThanOrEqual(viewport.width)
  await expectCurrentLegibleInView(runPage)
  const current = (await runPage.measureCurrent()).box
  expect(current.right, 'current message left of the panel').toBeLessThanOrEqual(box.x)
}

/** The panel's head (its title and Close) is in the window, below the stuck transport bar. */
async function expectInWindowUnderTransport(page: Page): Promise<void> {
  const panel = page.getByTestId('message-panel')
  const title = panel.getByRole('heading', { name: /Message at step/ })
  await expect(title).toBeInViewport()
  await expect(panel.getByRole('button', { name: 'Close the message panel' })).toBeInViewport()
  const bar = (await page.locator('.transport').boundingBox()) as { y: number; height: number }
  const head = (await title.boundingBox()) as { y: number }
  expect(head.y, 'panel title below the transport bar').toBeGreaterThanOrEqual(bar.y + bar.height)
}

/** 150 % zoom at 1280×720 is an 853×480 CSS window at 1.5 device pixels per CSS pixel. */
const WINDOWS = [
  { name: '1280×720', viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 },
  { name: '853×480 (150 % zoom)', viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 },
  { name: '1920×1080', viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 },
] as const

let straggler: RunView
test.beforeAll(async ({ request }) => {
  const created = (await (
    await request.post('/api/runs', { data: { scenario: 'straggler-retirement', seed: '0' } })
  ).json()) as RunView
  await expect
    .poll(
      async () => ((await (await request.get(`/api/runs/${created.id}`)).json()) as RunView).status,
      { timeout: 120_000 },
    )
    .toBe('complete')
  straggler = (await (await request.get(`/api/runs/${created.id}`)).json()) as RunView
})

test.describe('at 640×360 (200 % zoom of 1280×720)', () => {
  test.use({ viewport: { width: 640, height: 360 }, deviceScaleFactor: 2 })

  test('the run page and its tabs never scroll the page sideways (the Sessions table scrolls in its own box)', async ({
    page,
    runPage,
  }) => {
    const retire = await stepOf(page, straggler, 'agent.retire')
    for (const tab of ['sessions', 'tables', 'timeline', 'lineage', 'events']) {
      await page.goto(`/runs/${straggler.id}?step=${retire}&tab=${tab}`)
      await runPage.waitForStep(retire)
      await expect(runPage.diagram).toHaveAttribute('data-state', 'ready')
      await expectNoSidewaysScroll(page)
    }
    await page
      .getByRole('group', { name: /lifelines/i })
      .or(page.getByText('Lifelines'))
      .first()
      .click()
    await expectNoSidewaysScroll(page)
  })
})

for (const window of WINDOWS) {
  test.describe(`at ${window.name}`, () => {
    test.use({ viewport: window.viewport, deviceScaleFactor: window.deviceScaleFactor })

    test('the current message is legible and in view after stepping, jumping and zooming, and the page never scrolls sideways', async ({
      page,
      runPage,
    }) => {
      const retire = await stepOf(page, straggler, 'agent.retire')
      await page.goto(`/runs/${straggler.id}?step=${retire - 3}`)
      await runPage.waitForStep(retire - 3)
      await expectCurrentLegibleInView(runPage)
      await expectNoSidewaysScroll(page)
      // stepping
      for (let i = 0; i < 3; i++) await runPage.press('ArrowRight')
      await runPage.waitForStep(retire)
      await expect(runPage.currentMessage()).toHaveAttribute('data-label', /agent\.retire r0\.a0/)
      await expectCurrentLegibleInView(runPage)
      // jumping (a key moment far away, the diagram redrawn around it)
      await page.getByRole('combobox', { name: 'key moments' }).selectOption({ index: 1 })
      const jumped = (await runPage.position()).step
      await runPage.waitForStep(jumped)
      await expectCurrentLegibleInView(runPage)
      // zooming in and back to fit
      await page.getByRole('button', { name: 'Zoom in' }).click()
      await expectCurrentLegibleInView(runPage)
      await page.getByRole('button', { name: 'Fit width' }).click()
      await expectCurrentLegibleInView(runPage)
      // zoom out stops where labels would drop under 11 px
      const zoomOut = page.getByRole('button', { name: 'Zoom out' })
      while (await zoomOut.isEnabled()) await zoomOut.click()
      await expectCurrentLegibleInView(runPage)
      await expectNoSidewaysScroll(page)
      // every page of the app reflows at this width
      for (const url of [
        '/',
        '/demo/straggler',
        '/demo/generation-cut',
        `/runs/${straggler.id}?step=${retire}&tab=timeline`,
        `/runs/${straggler.id}?step=${retire}&message=1`,
      ]) {
        await page.goto(url)
        await expect(page.locator('main')).toBeVisible()
        const diagram = page.getByTestId('sequence-diagram').first()
        if ((await diagram.count()) > 0)
          await expect(diagram).toHaveAttribute('data-state', 'ready')
        await expectNoSidewaysScroll(page)
      }
    })
  })
}

test('the straggler demo at 1280×720: diagram, narration and the current message legible without scrolling', async ({
  page,
  runPage,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.goto(`/demo/straggler?run=${straggler.id}&step=0`)
  await runPage.waitForStep(0)
  await runPage.press('ArrowRight')
  await runPage.waitForStep(1)
  expect(await page.evaluate(() => window.scrollY)).toBe(0)
  await expectCurrentLegibleInView(runPage)
  await expect(page.getByTestId('narrative')).toBeInViewport()
  await expect(runPage.diagram).toBeInViewport()
})

test('the generation-cut demo: each pane at a legible size, scrolled to its current message, controller and agent in view', async ({
  page,
  runPage,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.goto('/demo/generation-cut')
  await page.getByRole('button', { name: /^the cut at token \d+ \(step \d+\)$/ }).click()
  for (const panel of await page.getByTestId('demo-panel').all()) {
    const diagram = panel.getByTestId('sequence-diagram')
    await expect(diagram).toHaveAttribute('data-state', 'ready')
    const { fontPx, box } = await runPage.measureCurrent(diagram)
    expect(fontPx).toBeGreaterThanOrEqual(11)
    const pane = (await diagram.boundingBox()) as { x: number; width: number }
    expect(box.left).toBeGreaterThanOrEqual(pane.x)
    expect(box.right).toBeLessThanOrEqual(pane.x + pane.width)
    for (const lifeline of ['controller', 'agent']) {
      const head = diagram.locator('.diagram-head svg text.actor', { hasText: lifeline }).first()
      const at = (await head.boundingBox()) as { x: number; width: number }
      expect(at.x).toBeGreaterThanOrEqual(pane.x)
      expect(at.x + at.width).toBeLessThanOrEqual(pane.x + pane.width)
    }
  }
})

test('every message opens: a click on the diagram, Enter on it, a row in Events — payload, pair, state diff, permalink', async ({
  page,
  runPage,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  const retire = await stepOf(page, straggler, 'agent.retire')
  await page.goto(`/runs/${straggler.id}?step=${retire}`)
  await runPage.waitForStep(retire)
  await runPage.currentMessage().click({ force: true })
  const panel = page.getByTestId('message-panel')
  await expect(panel).toHaveAttribute('data-step', String(retire))
  await expect(page).toHaveURL(/message=1/)
  await expect(panel.getByTestId('message-payload')).toContainText('rollout_id')
  await expect(panel.getByTestId('message-outcome')).toHaveText('✓ ok')
  await expect(panel.getByTestId('message-pair')).toHaveAttribute('data-role', 'both')
  const diff = panel.getByTestId('state-diff')
  await expect(
    diff.locator('tr[data-participant="agent"]', { hasText: 'tombstones' }),
  ).toContainText('r0.a0')
  await expect(panel.getByTestId('message-permalink')).toHaveAttribute(
    'href',
    new RegExp(`/runs/${straggler.id}\\?step=${retire}&message=1$`),
  )
  // the panel opens beside the diagram, wholly inside the window, the clicked message still in
  // view next to it (not under it)
  await expectPanelBesideCurrent(page, runPage)
  mkdirSync(SCREENSHOTS, { recursive: true })
  await expect(runPage.diagram).toHaveAttribute('data-state', 'ready')
  await page.screenshot({ path: `${SCREENSHOTS}payload-panel.png` })
  // scrolled down to the tabs, it stays docked in the window, under the transport bar
  await page.evaluate(() => window.scrollBy(0, 600))
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  await expectInWindowUnderTransport(page)
  await page.evaluate(() => window.scrollTo(0, 0))
  // Esc closes it, the cards come back and the focus returns to the diagram
  await page.keyboard.press('Escape')
  await expect(panel).toHaveCount(0)
  await expect(page).not.toHaveURL(/message=1/)
  await expect(runPage.participantCards.first()).toBeVisible()
  await expect(runPage.diagram).toBeFocused()
  // a narrow window (800 px: the cards under the diagram) shows the panel under the diagram,
  // scrolled into view when it opens
  await page.setViewportSize({ width: 800, height: 720 })
  await page.evaluate(() => window.scrollTo(0, 0))
  await expectCurrentLegibleInView(runPage)
  await runPage.currentMessage().click({ force: true })
  await expect(panel).toHaveAttribute('data-step', String(retire))
  await expect(panel.getByTestId('message-payload')).toContainText('rollout_id')
  await expectInWindowUnderTransport(page)
  await expectNoSidewaysScroll(page)
  await panel.getByRole('button', { name: 'Close the message panel' }).click()
  await expect(panel).toHaveCount(0)
  await expect(runPage.diagram).toBeFocused()
  await page.setViewportSize({ width: 1280, height: 720 })
  // the panel follows the step, and a model request shows its answer
  // r1's first call (r0's first one, the straggler's, is never answered)
  const request = await stepOf(page, straggler, 'model.request', 'r1')
  await page.goto(`/runs/${straggler.id}?step=${request}&message=1`)
  await expect(panel).toHaveAttribute('data-step', String(request))
  await expect(panel.getByTestId('message-pair')).toHaveAttribute('data-role', 'request')
  await expect(panel.getByTestId('message-pair')).toContainText('model.response')
  await panel.getByRole('button', { name: 'Close the message panel' }).click()
  await expect(panel).toHaveCount(0)
  // Enter on the focused diagram opens the current message
  await runPage.diagram.focus()
  await page.keyboard.press('Enter')
  await expect(panel).toHaveAttribute('data-step', String(request))
  // a row of the Events tab opens its message
  await runPage.openTab('Events')
  const row = page
    .getByTestId('events-log')
    .locator(`button.event-row:not([data-step="${request}"])`)
    .first()
  const rowStep = (await row.getAttribute('data-step')) ?? ''
  await row.click()
  await expect(panel).toHaveAttribute('data-step', rowStep)
})

test('the timeline: a lane per rollout, the deadline line, the straggler struck through across it, the restore gap; a bar goes to its step', async ({
  page,
  runPage,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/runs/${straggler.id}?step=1&tab=timeline`)
  const timeline = page.getByTestId('timeline')
  await expect(timeline).toHaveAttribute('data-rollouts', String(straggler.rollouts))
  const deadline = timeline.getByTestId('timeline-deadline')
  await expect(deadline).toBeVisible()
  await expect(deadline).toContainText('deadline')
  const straggled = timeline.locator(
    '[data-testid="timeline-bar"][data-rollout="r0"][data-attempt="0"][data-kind="model"][data-retired="true"]',
  )
  await expect(straggled).toBeVisible()
  const line = (await deadline.boundingBox()) as { x: number }
  const bar = (await straggled.boundingBox()) as { x: number; width: number }
  // the straggler is the bar that reaches the deadline: it starts before it and ends on or past it
  expect(bar.x).toBeLessThan(line.x)
  expect(bar.x + bar.width).toBeGreaterThanOrEqual(line.x - 1)
  await expect(timeline.locator('.tl-gap').first()).toBeVisible()
  await expect(timeline.locator('[data-testid="timeline-bar"].is-continued').first()).toBeVisible()
  await timeline.screenshot({ path: `${SCREENSHOTS}timeline.png` })
  // a click goes to the bar's step, and Back returns to where the timeline was opened
  const target = Number(await straggled.getAttribute('data-step'))
  await straggled.click()
  await runPage.waitForStep(target)
  await page.goBack()
  await runPage.waitForStep(1)
})

test('jumps are history entries: Back after a key moment returns to the step before it; folds and the Events filter live in the URL', async ({
  page,
  runPage,
}) => {
  await page.goto(`/runs/${straggler.id}?step=3`)
  await runPage.waitForStep(3)
  await runPage.press('ArrowRight')
  await runPage.waitForStep(4)
  await page.getByRole('combobox', { name: 'key moments' }).selectOption({ index: 1 })
  const jumped = (await runPage.position()).step
  expect(jumped).not.toBe(4)
  await runPage.waitForStep(jumped)
  await page.goBack()
  await runPage.waitForStep(4)
  // folding a phase and filtering the log are in the URL, so a reload keeps them
  await page.getByRole('button', { name: 'commit', exact: true }).click()
  await expect(page).toHaveURL(/fold=commit/)
  await runPage.openTab('Events')
  await page.getByRole('searchbox', { name: 'Filter events' }).fill('stale_attempt')
  await expect(page).toHaveURL(/q=stale_attempt/)
  await page.reload()
  await expect(page.getByRole('searchbox', { name: 'Filter events' })).toHaveValue('stale_attempt')
  await expect(page.getByRole('button', { name: 'commit', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
})

test('presentation mode: p and ?present=1 show the diagram and the narration only, in large type, the current message centred', async ({
  page,
  runPage,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  const retire = await stepOf(page, straggler, 'agent.retire')
  await page.goto(`/demo/straggler?run=${straggler.id}&step=${retire}`)
  await runPage.waitForStep(retire)
  await page.locator('body').click({ position: { x: 2, y: 300 } })
  await page.keyboard.press('p')
  await expect(page).toHaveURL(/present=1/)
  await expect(page.getByTestId('presentation-mode')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('tablist')).toBeHidden()
  await expect(page.getByTestId('participant-card').first()).toBeHidden()
  await expect(page.getByTestId('narrative')).toBeVisible()
  const { fontPx } = await runPage.measureCurrent()
  expect(fontPx).toBeGreaterThanOrEqual(18)
  await expectCurrentLegibleInView(runPage)
  await page.screenshot({ path: `${SCREENSHOTS}presentation-mode.png` })
  await page.keyboard.press('p')
  await expect(page.getByRole('tablist')).toBeVisible()
  await page.goto(`/runs/${straggler.id}?step=${retire}&present=1`)
  await expect(page.getByTestId('presentation-mode')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('present-narration')).toBeVisible()
})

test('dark mode follows prefers-color-scheme and the header toggle overrides it', async ({
  page,
}) => {
  const background = () =>
    page.evaluate(() => {
      const [r, g, b] = (
        getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g) ?? []
      ).map(Number)
      return ((r ?? 0) + (g ?? 0) + (b ?? 0)) / 3
    })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await expect(page.getByTestId('runs-list')).toBeVisible()
  expect(await background()).toBeLessThan(60)
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('aria-pressed', 'true')
  await page.getByTestId('theme-toggle').click()
  expect(await background()).toBeGreaterThan(200)
  // the choice is kept over the system's
  await page.reload()
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('aria-pressed', 'false')
  expect(await background()).toBeGreaterThan(200)
  await page.getByTestId('theme-toggle').click()
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(`/runs/${straggler.id}?step=40`)
  expect(await background()).toBeLessThan(60)
})

test('the home page opens on the runs list, newest first; search and filters narrow it; a re-run links to its parent and Compare defaults to it', async ({
  page,
  homePage,
  createRun,
}) => {
  const happy = await createRun({ scenario: 'happy-path', seed: '5' })
  await homePage.open({ gallery: false })
  const list = page.getByTestId('runs-list')
  await expect(list).toBeInViewport()
  await expect(page.getByTestId('scenario-card')).toHaveCount(0)
  const rows = list.getByTestId('run-row')
  const created = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id')))
  expect(created[0]).toBe(happy.id)
  // search by id
  await page.getByTestId('runs-filter').fill(happy.id)
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toHaveAttribute('data-run-id', happy.id)
  await page.getByTestId('runs-filter').fill('')
  // the scenario filter and the kind filter (which lists recorded runs too)
  await page.getByRole('combobox', { name: 'Scenario filter' }).selectOption('straggler-retirement')
  for (const row of await rows.all()) await expect(row).toContainText('straggler-retirement')
  await page.getByRole('combobox', { name: 'Scenario filter' }).selectOption('')
  const kinds = page.getByRole('combobox', { name: 'Kind filter' })
  await expect(kinds.locator('option[value="recorded"]')).toHaveText(
    'recorded from a real controller',
  )
  await kinds.selectOption('fleet')
  for (const row of await rows.all()) await expect(row).toHaveAttribute('data-kind', 'fleet')
  await kinds.selectOption('')
  await page.getByRole('combobox', { name: 'Status filter' }).selectOption('failed')
  for (const row of await rows.all()) await expect(row).toContainText('failed')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  // the gallery is one click away
  await homePage.openGallery()
  await expect(page.getByTestId('scenario-card').first()).toBeVisible()
  // "Run with this fault" makes a run that names its parent; Compare defaults to the parent
  await page.goto(`/runs/${happy.id}?step=1`)
  await page
    .getByTestId('inject-fault')
    .getByRole('button', { name: 'Run with this fault' })
    .click()
  await page.waitForURL((url) => !url.pathname.endsWith(happy.id))
  await expect(page.getByTestId('parent-run')).toHaveText(happy.id)
  await expect(page.getByRole('combobox', { name: 'Compare with this run' })).toHaveValue(happy.id)
})
