import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ServerType } from '@hono/node-server'
import type { DirectoryRunView, ErrorBody } from '@cutover/core/contracts'
import { INSPECT_ROOTS_FILE, addInspectRoot } from '../directories/inspectRoots.ts'
import { resolveInspectPath } from '../directories/resolveInspectPath.ts'
import { createNodeAppDeps, resolveDataDir } from '../nodeAppDeps.ts'
import { closeOnSignals } from '../process/closeOnSignals.ts'
import { startServer } from '../server.ts'
import { ensureWebBuild } from '../webBuild.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT } from '../process/io.ts'

export const INSPECT_HELP = `usage: cutover inspect DIR [--port N]

Opens a checkpoint directory in the inspector, read-only, as a run of kind "directory": its
verification (every problem of cutover verify, per file), the sessions decoded from its resources
snapshots (Blackjack hands and RNG position, counters, Workplace tables in either form), the agent
boundary of each execution, the lineage from the model ledger and the directory's own timeline; for
a generation-safe checkpoint also its token-store segments with digest status and the ledger's
generation cuts (cut at token k).
Nothing is ever written into DIR; symlinks below it are reported, never followed.

If a Cutover server answers on the port it is asked to open DIR; otherwise this command starts
one (like cutover serve) and keeps running. Either way it prints the run's URL. DIR is recorded in
<data directory>/${INSPECT_ROOTS_FILE}, the list of directories the server may open besides the
data directory and CUTOVER_INSPECT_ROOTS (the server must use the same data directory:
CUTOVER_DATA_DIR, or .cutover/ in the working directory).

Options:
  --port N  the server's port (default: PORT, or 8787)
  --help    show this help

Exit status: 0 the directory is open (whether or not it verifies); 2 usage error, DIR missing or
not a checkpoint directory, or the server refused it.`

/**
 * Seams for tests: the environment, and the server this command starts (so a test can close it).
 */
export interface InspectOptions {
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  /** Serve the web build (default true; tests without a build pass false). */
  readonly serveWeb?: boolean
  readonly onServer?: (server: ServerType) => void
}

/** True when a Cutover server answers `/api/health` at `base`. */
async function cutoverAnswers(base: string): Promise<boolean> {
  try {
    const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(1500) })
    const body = (await response.json()) as { status?: unknown }
    return response.ok && body.status === 'ok'
  } catch {
    return false
  }
}

/** `cutover inspect DIR [--port N]` (docs/cli.md). */
export async function runInspectCommand(
  argv: readonly string[],
  io: CliIo,
  options: InspectOptions = {},
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${INSPECT_HELP}\n`)
    return EXIT.ok
  }
  const env = options.env ?? process.env
  let dirArg: string | undefined
  let portText: string
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { port: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    })
    if (parsed.positionals.length > 1)
      throw new Error(`unexpected argument ${parsed.positionals[1]}`)
    dirArg = parsed.positionals[0]
    portText = parsed.values.port ?? env['PORT'] ?? '8787'
  } catch (error) {
    io.stderr(`cutover inspect: ${(error as Error).message} (see cutover inspect --help)\n`)
    return EXIT.usage
  }
  if (dirArg === undefined) {
    io.stderr('cutover inspect: missing DIR (usage: cutover inspect DIR [--port N])\n')
    return EXIT.usage
  }
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) {
    io.stderr(`cutover inspect: --port takes an integer from 0 to 65535, got '${portText}'\n`)
    return EXIT.usage
  }
  // The same checks the server makes, with DIR as its own root: refused here, nothing is recorded.
  const cwd = options.cwd ?? process.cwd()
  const local = resolveInspectPath(dirArg, [resolve(cwd, dirArg)], cwd)
  if (!local.ok) {
    io.stderr(`cutover inspect: ${local.error.code}: ${local.error.message}\n`)
    return EXIT.usage
  }
  const dir = local.value
  const dataDir = resolveDataDir(env, cwd)
  addInspectRoot(dataDir, dir)

  const host = env['HOST'] ?? '127.0.0.1'
  let base = `http://${host}:${portText}`
  if (portText === '0' || !(await cutoverAnswers(base))) {
    if (options.serveWeb ?? true) ensureWebBuild((line) => io.stderr(`${line}\n`))
    const deps = createNodeAppDeps({
      dataDir,
      controlToken: env['CUTOVER_CONTROL_TOKEN'],
      log: (line) => io.stderr(`${line}\n`),
    })
    try {
      const started = await startServer({
        port: Number(portText),
        host,
        serveWeb: options.serveWeb ?? true,
        deps,
      })
      base = started.url
      options.onServer?.(started.server)
      if (options.onServer === undefined) closeOnSignals(started.server)
      io.stderr(`Cutover listening on ${base} (data directory ${dataDir}); Ctrl-C stops it\n`)
    } catch (error) {
      io.stderr(`cutover inspect: cannot start a server on ${base}: ${(error as Error).message}\n`)
      return EXIT.usage
    }
  }
  let response: Response
  try {
    response = await fetch(`${base}/api/directories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: dir }),
    })
  } catch (error) {
    io.stderr(
      `cutover inspect: the server at ${base} did not answer: ${(error as Error).message}\n`,
    )
    return EXIT.usage
  }
  const body = (await response.json()) as DirectoryRunView | ErrorBody
  if ('error' in body) {
    const hint =
      body.error.code === 'path_not_allowed'
        ? ` (the server on ${base} uses another data directory: restart it with CUTOVER_INSPECT_ROOTS=${dir}, or stop it and run this again)`
        : ''
    io.stderr(`cutover inspect: ${body.error.code}: ${body.error.message}${hint}\n`)
    return EXIT.usage
  }
  const count = body.problems.length
  const verdict = body.valid
    ? body.publisher === 'nemo-rl'
      ? 'valid, published by the NeMo-RL controller'
      : 'valid'
    : `invalid (${count} problem${count === 1 ? '' : 's'}: ${body.problems
        .slice(0, 3)
        .map((p) => `${p.code} ${p.path ?? '-'}`)
        .join(', ')}${count > 3 ? ', …' : ''})`
  // Generation-safe checkpoints also name their cuts and token-store segments (with digest status).
  const segments = body.segments ?? []
  const unmatched = segments.filter((s) => s.status !== 'ok').length
  const cuts =
    body.generation_cuts === undefined
      ? ''
      : `, ${body.generation_cuts.length} generation cut${body.generation_cuts.length === 1 ? '' : 's'}`
  const segs =
    segments.length === 0
      ? ''
      : `, ${segments.length} token-store segment${segments.length === 1 ? '' : 's'} (${unmatched === 0 ? 'digests ok' : `${unmatched} not matching`})`
  io.stdout(
    `${dir}: checkpoint ${body.checkpoint_id ?? '(unnamed)'}, ${body.sessions.length} sessions${cuts}${segs}, ${verdict}\n${base}/runs/${body.id}\n`,
  )
  return EXIT.ok
}
