import { createNodeAppDeps, resolveDataDir } from '../nodeAppDeps.ts'
import { ensureDemoRun } from '../runs/ensureDemoRun.ts'
import { closeOnSignals, startServer } from '../server.ts'
import { ensureWebBuild } from '../webBuild.ts'
import type { CliIo } from './io.ts'
import { EXIT } from './io.ts'

export const SERVE_HELP = `usage: cutover serve

Serves the Cutover API and inspector on http://127.0.0.1:8787 (PORT and HOST override).
Builds the web app first when its build is missing or stale.

Runs and their checkpoint directories live in the data directory: CUTOVER_DATA_DIR, or .cutover/
in the working directory. A data directory without runs gets the straggler-retirement demo run.
With CUTOVER_CONTROL_TOKEN set, each environment's control routes are mounted under
/gym/<env>/ng-control/v1/ behind Authorization: Bearer <token>.`

/** `cutover serve`: the same as `npm start`. Resolves once the server listens. */
export async function runServeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${SERVE_HELP}\n`)
    return EXIT.ok
  }
  if (argv.length > 0) {
    io.stderr(`cutover serve: unknown option ${argv[0]}\n`)
    return EXIT.usage
  }
  const port = Number(process.env.PORT ?? 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr(`cutover serve: PORT must be an integer from 0 to 65535, got ${process.env.PORT}\n`)
    return EXIT.usage
  }
  const host = process.env.HOST ?? '127.0.0.1'
  ensureWebBuild((line) => io.stdout(`${line}\n`))
  const dataDir = resolveDataDir()
  const deps = createNodeAppDeps({ dataDir, controlToken: process.env.CUTOVER_CONTROL_TOKEN, log: (line) => io.stderr(`${line}\n`) })
  const { server, url, runs } = await startServer({ port, host, serveWeb: true, deps })
  closeOnSignals(server)
  const demo = ensureDemoRun(runs, deps.simulator)
  if (demo !== undefined) io.stdout(`created the ${demo.scenario} demo run ${demo.id}\n`)
  io.stdout(`Cutover listening on ${url} (data directory ${dataDir})\n`)
  return EXIT.ok
}
