// Records one checkpoint cycle of Cutover's own participant processes through `cutover record`:
// `npx tsx scripts/recorded-fleet.ts [--data DIR] [--work DIR] [--step]`. The participants start on
// free ports with a recording proxy in front of each (the agent pointed at the model's and the
// resources' proxies), and `cutover checkpoint` drives prepare, commit, restore into fresh
// `--restore-expected` processes and resume through the proxies (apps/api/src/testing/
// recordedFleet.ts). The run is stored in DIR (default CUTOVER_DATA_DIR or .cutover/), where
// `cutover serve` lists it and follows it live. Progress is one JSON line per step on stdout
// (`ready` with the run id and proxies, then `prepare`, `commit`, `resume`, `done`); with --step it
// waits for a line on stdin after each of `prepare`, `commit` and `resume` (the e2e test looks at
// the live run then).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { driveRecordedCycle, startRecordedFleet } from '../apps/api/src/testing/recordedFleet.ts'

const args = process.argv.slice(2)
const value = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const dataDir = resolve(value('--data') ?? process.env['CUTOVER_DATA_DIR'] ?? '.cutover')
const ownWork = value('--work') === undefined
const workDir = value('--work') ?? mkdtempSync(join(tmpdir(), 'cutover-recorded-fleet-'))
const stepping = args.includes('--step')
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`)

const lines = createInterface({ input: process.stdin })
const waiting: (() => void)[] = []
lines.on('line', () => waiting.shift()?.())

const fleet = await startRecordedFleet({ dataDir, workDir, runName: 'recorded fleet cycle' })
say({ event: 'ready', run_id: fleet.runId, proxies: fleet.proxies, fleet_file: fleet.fleetFile })
try {
  await driveRecordedCycle(fleet, async (after) => {
    say({ event: after })
    if (stepping) await new Promise<void>((r) => waiting.push(r))
  })
  const code = await fleet.stopRecorder('SIGTERM')
  say({ event: 'done', recorder_exit: code })
} catch (error) {
  say({ event: 'failed', message: error instanceof Error ? error.message : String(error) })
  process.exitCode = 1
} finally {
  await fleet.stop()
  lines.close()
  if (ownWork) rmSync(workDir, { recursive: true, force: true })
}
