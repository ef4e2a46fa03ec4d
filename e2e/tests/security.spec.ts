import { expect, test } from '../fixtures/test.ts'

test('the inspector is served under its Content-Security-Policy, and the suite sees any violation', async ({
  page,
  cspViolations,
  consoleErrors,
}) => {
  const response = await page.goto('/')
  const headers = response?.headers() ?? {}
  const csp = headers['content-security-policy'] ?? ''
  for (const directive of ["script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"])
    expect(csp).toContain(directive)
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBe('no-referrer')
  await expect(page.getByTestId('runs-list')).toBeVisible()
  expect(cspViolations).toEqual([])

  // An injected inline script does not run, and the watch every test carries reports it.
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script')
    script.textContent = 'window.__injected = true'
    document.head.append(script)
    await new Promise((resolve) => setTimeout(resolve, 100))
    return (window as unknown as { __injected?: boolean }).__injected === true
  })
  expect(ran).toBe(false)
  await expect.poll(() => cspViolations.length).toBeGreaterThan(0)
  expect(cspViolations.join('\n')).toContain('script-src')
  // This test caused them on purpose: clear them (and the console line Chromium logs for each).
  cspViolations.length = 0
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((line) => !/Content.Security.Policy/i.test(line)),
  )
})

test('same-origin use from the page works under the Host and Origin checks: create and delete a run', async ({
  page,
}) => {
  await page.goto('/')
  const status = await page.evaluate(async () => {
    const created = await fetch('/api/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: 'happy-path', rollouts: 2 }),
    })
    const run = (await created.json()) as { id: string }
    const deleted = await fetch(`/api/runs/${run.id}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    })
    return [created.status, deleted.status]
  })
  expect(status).toEqual([201, 204])
})
