import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { addInspectRoot } from '../directories/inspectRoots.ts'
import { resolveDataDir } from '../nodeAppDeps.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { importRecording } from '../record/importRecording.ts'
import { createRunIdSource } from '../runs/runIds.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import { parseArgs, wantsHelp } from './parseArgs.ts'
import { recordingSummary } from './recordCommand.ts'

export const IMPORT_HELP = `usage: cutover import FILE.jsonl [--checkpoint-dirs DIR[,DIR…]] [--checkpoint-root DIR] [--json]

Turns a recording made elsewhere (one HTTP exchange per line, the shape cutover record writes and
the real stack's exchanges.jsonl: participant, method, path, query, request, status, response, t)
into a stored run of kind "recorded" that cutover serve lists and opens: its sequence diagram,
participant cards, events and the checks a black box allows (docs/recording.md). Lines are stored
with secrets removed. A relative checkpoint_dir in a request resolves against --checkpoint-root
(default FILE's folder), or to the directory of --checkpoint-dirs with the same name;
--checkpoint-dirs also names directories no request names (the one a controller restored from
without sending it), checked against the recording too. Those directories become openable in the
inspector (inspect-roots.txt).

Options:
  --checkpoint-dirs DIR,…  checkpoint directories of this recording (see above)
  --checkpoint-root DIR    where a relative checkpoint_dir resolves (default: FILE's folder)
  --json                   print exactly one JSON object: the stored run

Exit status: 0 the run is stored (a last line cut short mid-line is reported on stderr and on the
run, the lines before it kept); 2 usage error, FILE unreadable, or a line that is not an exchange
(the message names the line; nothing is stored).`

/** `cutover import FILE.jsonl` (docs/recording.md). */
export function runImportCommand(
  argv: readonly string[],
  io: CliIo,
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {},
): number {
  if (wantsHelp(argv)) {
    io.stdout(`${IMPORT_HELP}\n`)
    return EXIT.ok
  }
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  let file: string
  let dirs: string[]
  let root: string | undefined
  let json: boolean
  try {
    const { values, switches, positionals } = parseArgs(argv, {
      values: ['--checkpoint-dirs', '--checkpoint-root'],
      switches: ['--json'],
      positionals: 1,
    })
    const first = positionals[0]
    if (first === undefined) throw new UsageError('missing FILE.jsonl')
    file = resolve(cwd, first)
    dirs = (values.get('--checkpoint-dirs') ?? '').split(',').filter((d) => d.trim() !== '')
    const rootText = values.get('--checkpoint-root')
    root = rootText === undefined ? undefined : resolve(cwd, rootText)
    json = switches.has('--json')
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`cutover import: ${error.message} (see cutover import --help)\n`)
    return EXIT.usage
  }
  const dataDir = resolveDataDir(env, cwd)
  const store = createFileRunStore(
    dataDir,
    (path, create) => new NodeCheckpointDirectory(path, { create }),
  )
  const now = Date.now()
  const runId = createRunIdSource().next(now, (id) => existsSync(join(dataDir, 'runs', id)))
  const imported = importRecording({
    file,
    runId,
    store,
    createdAt: new Date(now).toISOString(),
    checkpointDirs: dirs,
    cwd,
    ...(root === undefined ? {} : { root }),
    secrets: [env['CUTOVER_CONTROL_TOKEN'], env['NEMO_GYM_CHECKPOINT_CONTROL_TOKEN']],
  })
  if (!imported.ok) {
    const refusal = imported.error
    io.stderr(
      refusal.kind === 'unreadable'
        ? `cutover import: ${refusal.message}\n`
        : `cutover import: ${file}: ${refusal.message}; nothing was imported\n`,
    )
    return EXIT.usage
  }
  const view = imported.value
  for (const d of view.recording?.directories ?? []) if (d.exists) addInspectRoot(dataDir, d.path)
  for (const p of view.recording?.problems ?? [])
    io.stderr(`cutover import: ${file}: ${p.message}\n`)
  if (json) io.stdout(`${JSON.stringify(view)}\n`)
  else io.stdout(`${recordingSummary(view)}\nrun ${view.id} in ${dataDir}\n`)
  return EXIT.ok
}
