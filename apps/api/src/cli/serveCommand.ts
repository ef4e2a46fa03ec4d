import { createNodeAppDeps, resolveDataDir } from '../nodeAppDeps.ts'
import { ensureDemoRun } from '../runs/ensureDemoRun.ts'
import { closeOnSignals } from '../process/closeOnSignals.ts'
import { startServer } from '../server.ts'
import { ensureWebBuild } from '../webBuild.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT } from '../process/io.ts'
import { readServeConfig } from './readServeConfig.ts'

export const SERVE_HELP = `usage: cutover serve [--host ADDRESS]

Serves the Cutover API and inspector on http://127.0.0.1:8787 (PORT and HOST or --host override).
It answers only requests addressed to it (Host 127.0.0.1, localhost or [::1] with its port, or
the --host name); binding beyond loopback also needs CUTOVER_CONTROL_TOKEN.
Builds the web app first when its build is missing or stale.

Runs and their checkpoint directories live in the data directory: CUTOVER_DATA_DIR, or .cutover/
in the working directory. A data directory without runs gets the straggler-retirement demo run.
With CUTOVER_CONTROL_TOKEN set, each environment's control routes are mounted under
/gym/<env>/ng-control/v1/ behind Authorization: Bearer <token>.

Limits: CUTOVER_MAX_SIMULATIONS (simulations at once; default the CPU cores), CUTOVER_MAX_QUEUED_RUNS
(16), CUTOVER_MAX_RUNS (runs the data directory holds; 500), CUTOVER_MAX_STREAMS_PER_RUN (32).`

/** `cutover serve`: the same as `npm start`. Resolves once the server listens. */
export async function runServeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${SERVE_HELP}\n`)
    return EXIT.ok
  }
  const config = readServeConfig(argv, process.env)
  if (!config.ok) {
    io.stderr(`cutover serve: ${config.error}\n`)
    return EXIT.usage
  }
  const { host, port, limits, controlToken } = config.value
  ensureWebBuild((line) => io.stdout(`${line}\n`))
  const dataDir = resolveDataDir()
  const deps = {
    ...createNodeAppDeps({ dataDir, controlToken, log: (line) => io.stderr(`${line}\n`) }),
    limits,
  }
  const { server, url, runs } = await startServer({ port, host, serveWeb: true, deps })
  closeOnSignals(server)
  const demo = ensureDemoRun(runs, deps.simulator)
  if (demo !== undefined) io.stdout(`created the ${demo.scenario} demo run ${demo.id}\n`)
  io.stdout(`Cutover listening on ${url} (data directory ${dataDir})\n`)
  return EXIT.ok
}
