import { chromium } from '@playwright/test'
const base = 'http://127.0.0.1:4632'
const created = await (await fetch(`${base}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'happy-path', rollouts: 300 }) })).json()
let run
for (;;) { run = await (await fetch(`${base}/api/runs/${created.id}`)).json(); if (run.status !== 'running') break; await new Promise((r) => setTimeout(r, 1000)) }
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } })
const step = Math.floor(run.events * 0.8)
await page.goto(`${base}/runs/${run.id}?step=${step}`)
await page.locator('[data-testid="sequence-diagram"][data-state="ready"]').waitFor()
await page.locator('.sessions-tab[aria-busy="false"]').waitFor()
await page.screenshot({ path: '/tmp/perf3/look/sessions.png', fullPage: true })
await page.keyboard.press('ArrowRight')
await page.waitForTimeout(80)
await page.screenshot({ path: '/tmp/perf3/look/stepping.png', fullPage: true })
await page.goto(`${base}/runs/${run.id}?step=${step}&tab=tables`)
await page.locator('[data-testid="tables-view"]').waitFor()
await page.waitForTimeout(1500)
await page.screenshot({ path: '/tmp/perf3/look/tables.png', fullPage: true })
console.log(run.id, run.events)
await browser.close()
