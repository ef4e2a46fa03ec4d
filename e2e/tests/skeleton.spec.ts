import { expect, test } from '@playwright/test'

test('the home page draws a checkpoint cycle fetched from the API', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto('/')
  const diagram = page.getByTestId('sequence-diagram')
  await expect(diagram.locator('svg')).toBeVisible()
  await expect(diagram.locator('svg')).toContainText('agent.prepare')
  expect(errors).toEqual([])
})
