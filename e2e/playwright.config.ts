import { defineConfig } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 4319)
// A fresh data directory per run: runs stored by an older build of the simulator would not
// re-simulate to the same trace, and the suite should not depend on what an earlier run left.
const dataDir = process.env.E2E_DATA_DIR ?? '.cutover/e2e'
const clean = process.env.E2E_DATA_DIR
  ? ''
  : `node -e "require('node:fs').rmSync('${dataDir}', { recursive: true, force: true })" && `
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  testDir: './tests',
  // Generous ceilings, never budgets: on a machine whose cores are busy every step is slower, and a
  // test must still pass (it fails on what it sees, not on how long it took).
  timeout: 300_000,
  expect: { timeout: 60_000 },
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Playwright adds --headless and a fresh temporary profile itself (passing one throws).
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'debian-chromium' }],
  webServer: {
    // The same server `npm start` runs, on its own port and a throw-away data directory.
    command: `${clean}node apps/api/bin/cutover.js serve`,
    cwd: '..',
    url: `${baseURL}/api/health`,
    env: { PORT: String(port), HOST: '127.0.0.1', CUTOVER_DATA_DIR: dataDir },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe',
  },
})
