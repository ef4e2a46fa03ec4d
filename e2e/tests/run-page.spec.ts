import { mkdirSync } from 'node:fs'
import { expect, test } from '../fixtures/test.ts'

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname

test('a happy-path run steps through the whole cycle by keyboard, and its permalink reopens the same step', async ({
  page,
  homePage,
  runPage,
}) => {
  await homePage.open()
  const id = await homePage.runScenario('happy-path')
  await runPage.waitForComplete()
  const { total } = await runPage.position()
  expect(total).toBeGreaterThan(50)

  // keyboard only: Home to the start, then → through every step
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  await runPage.press('Home')
  await runPage.waitForStep(0)
  let previousSoFar = await runPage.messagesSoFar()
  const controllerPhases = new Set<string>()
  let grew = 0
  for (let step = 1; step <= total; step++) {
    await runPage.press('ArrowRight')
    // check the drawing every few steps (and at the end): stepping itself must never wait for it
    if (step % 8 === 0 || step === total) {
      await runPage.waitForStep(step)
      const soFar = await runPage.messagesSoFar()
      if (soFar > previousSoFar) grew++
      previousSoFar = soFar
      controllerPhases.add((await runPage.phaseOf('controller')) ?? '')
      await expect(runPage.currentMessage()).toHaveCount(1)
    }
  }
  await expect(runPage.stepCounter).toHaveText(`step ${total} / ${total}`)
  expect(grew, 'the diagram grows as the cycle advances').toBeGreaterThan(3)
  expect(
    controllerPhases.size,
    `controller phases seen: ${[...controllerPhases].join(', ')}`,
  ).toBeGreaterThanOrEqual(3)

  // back into the middle of the cycle, then reload the permalink
  await runPage.press('Home')
  const middle = Math.floor(total / 2)
  for (let i = 0; i < middle; i++) await runPage.press('ArrowRight')
  await runPage.waitForStep(middle)
  await expect(page).toHaveURL(new RegExp(`/runs/${id}\\?step=${middle}$`))
  const message = await runPage.currentMessage().getAttribute('data-label')
  const phases = await runPage.participantCards.evaluateAll((cards) =>
    cards.map((c) => `${c.getAttribute('data-participant')}=${c.getAttribute('data-phase')}`),
  )
  await page.reload()
  await runPage.waitForStep(middle)
  await expect(runPage.stepCounter).toHaveText(`step ${middle} / ${total}`)
  await expect(runPage.currentMessage()).toHaveAttribute('data-label', message ?? '')
  expect(
    await runPage.participantCards.evaluateAll((cards) =>
      cards.map((c) => `${c.getAttribute('data-participant')}=${c.getAttribute('data-phase')}`),
    ),
  ).toEqual(phases)

  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}run-page.png` })
})

test('the home page lists the scenarios and opens a run from its card', async ({
  homePage,
  runPage,
  page,
}) => {
  await homePage.open()
  // the eight presets of docs/protocol.md §12.3 and the six generation-safe ones of §11
  await expect(homePage.cards).toHaveCount(14)
  // at 1,024 px no card's text runs out of it (long error codes wrap)
  await page.setViewportSize({ width: 1024, height: 768 })
  const overflowing = await homePage.cards.evaluateAll((cards) =>
    cards
      .filter(
        (c) =>
          c.scrollWidth > c.clientWidth + 1 ||
          Array.from(c.querySelectorAll('p')).some((p) => p.scrollWidth > p.clientWidth + 1),
      )
      .map((c) => c.getAttribute('data-scenario')),
  )
  expect(overflowing).toEqual([])
  await homePage.runScenario('stale-attempt-fenced')
  await expect(runPage.stepCounter).toBeVisible()
  await expect(page.getByRole('tablist')).toBeVisible()
  for (const name of [
    'Sessions',
    'Tables',
    'Lineage',
    'Manifests',
    'Invariants',
    'Events',
  ] as const)
    await expect(runPage.tab(name)).toBeVisible()
  // at 1,024 px the current-event line is whole: sender, receiver, type, outcome and its narration
  await runPage.waitForComplete()
  const line = page.locator('.current-event')
  await expect(line).toContainText('→')
  await expect(page.getByTestId('narration')).not.toBeEmpty()
  expect(await line.evaluate((p) => p.scrollWidth - p.clientWidth)).toBeLessThanOrEqual(0)
  // the runs list: seed cells stay table cells (an inline-block cell breaks the row's borders)
  await homePage.open()
  const seedCell = page.locator('.run-list td.seed').first()
  await expect(seedCell).toBeVisible()
  expect(await seedCell.evaluate((td) => getComputedStyle(td).display)).toBe('table-cell')
})
