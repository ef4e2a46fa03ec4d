import { ENV_NAMES } from '../contracts/environments.ts'
import type { z } from 'zod'
import type {
  DirectoryBoundaryView,
  DirectoryFileView,
  DirectoryProblemView,
  DirectoryRunView,
  DirectorySessionView,
} from '../contracts/directoryRun.ts'
import type { SessionRow } from '../contracts/views.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import { createDirectoryView } from '../directory/DirectoryView.ts'
import type { DirectoryView } from '../directory/DirectoryView.ts'
import { parseJsonFile, parseJsonLines } from '../directory/jsonFile.ts'
import {
  AGENT_DIR,
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  MANIFEST_FILE,
  MODEL_LEDGER_DIR,
  RESOURCES_DIR,
  TOKEN_STORE_MANIFEST_PATH,
} from '../directory/layout.ts'
import {
  agentManifestSchema,
  aggregateManifestSchema,
  checkpointMarkerSchema,
  ledgerManifestSchema,
  resourcesManifestSchema,
  tokenStoreManifestSchema,
} from '../directory/manifests.ts'
import type { NamespaceOwner } from '../directory/participantNamespaces.ts'
import { agentBoundaryRecordSchema } from '../records/AgentBoundaryRecord.ts'
import { lineageRowSchema } from '../records/LineageRow.ts'
import { parseSnapshotFromFile } from '../directory/snapshotEnvelope.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { segmentViewsOf } from '../directory/tokenSegments.ts'
import type { GenerationCutEntry } from '../directory/manifests.ts'
import type { WorkplaceBase } from '../environments/workplace/WorkplaceSession.ts'
import type { Digest } from '../ports.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import { describeSnapshot } from './describeSnapshot.ts'
import { directoryGenerationCuts } from './directoryGenerationCuts.ts'
import { directoryLineage } from './directoryLineage.ts'
import { directoryTimeline } from './directoryTimeline.ts'

/** Everything `inspectDirectory` reads out of D: a directory run without its identity. */
export type DirectoryInspection = Omit<
  DirectoryRunView,
  'id' | 'kind' | 'path' | 'status' | 'created_at' | 'events'
>

type Environment = SessionRow['environment']
const ENVIRONMENTS: readonly string[] = ENV_NAMES

/** A JSON file parsed against a schema, or undefined when absent, not JSON or not that shape. */
function readJson<T>(view: DirectoryView, path: string, schema: z.ZodType<T>): T | undefined {
  const bytes = view.entries.get(path)?.kind === 'file' ? view.read(path) : undefined
  if (bytes === undefined) return undefined
  const json = parseJsonFile(bytes)
  if (!json.ok) return undefined
  const parsed = schema.safeParse(json.value)
  return parsed.success ? parsed.data : undefined
}

/**
 * Immediate sub-folders of a namespace root (`model-ledger/<server>`, `resources/<server>`),
 * sorted.
 */
function serverFolders(view: DirectoryView, root: string): string[] {
  const names = new Set<string>()
  for (const e of view.below(root)) {
    const rest = e.path.slice(root.length + 1)
    if (rest.includes('/')) names.add(rest.split('/')[0] as string)
  }
  return [...names].sort()
}

/** Data files of a namespace folder on disk (regular files, the manifest left out). */
/**
 * `r004.a1` of a snapshot or boundary file (`resources/<env>/r004.a1.json`, `agent/r004.a1.json`).
 */
const SNAPSHOT_FILE = /\/([A-Za-z0-9][A-Za-z0-9._-]*)\.a(0|[1-9][0-9]{0,8})\.json$/

/**
 * The row of a snapshot that cannot be read (damaged bytes, a missing file): named by its file,
 * state `uncertain`, marked with its verification problem.
 */
function unreadableSession(
  path: string,
  server: string,
  environment: Environment,
  problem: DirectoryProblemView | undefined,
  missing: boolean,
): DirectorySessionView | undefined {
  const name = SNAPSHOT_FILE.exec(path)
  if (!name) return undefined
  const rollout = name[1] as string
  const attempt = Number(name[2])
  const why = missing ? 'the file is missing' : 'the file does not decode as a snapshot'
  return {
    row: {
      key: `${rollout}.a${attempt}`,
      rollout_id: rollout,
      attempt,
      environment,
      state: 'uncertain',
      revision: null,
      session_id: null,
      summary: `damaged: ${problem?.code ?? (missing ? 'missing_file' : 'unreadable')}`,
    },
    server,
    file: path,
    verified: false,
    detail: { kind: 'unreadable', message: problem ? `${why}: ${problem.message}` : why },
    state: null,
    problem: problem ?? {
      code: missing ? 'missing_file' : 'unreadable',
      path,
      message: why,
    },
  }
}

const dataFiles = (view: DirectoryView, folder: string): string[] =>
  view
    .below(folder)
    .filter(
      (e) =>
        e.kind === 'file' &&
        e.path !== `${folder}/${MANIFEST_FILE}` &&
        !e.path.slice(folder.length + 1).includes('/'),
    )
    .map((e) => e.path)

/**
 * Opens a checkpoint directory read-only, as the inspector shows it post-mortem: the verification
 * of `cutover verify` (every problem, per file), each file with its digest and problem codes, the
 * directory's own timeline, the sessions decoded from the resources snapshots, the agent boundary
 * of each execution and the lineage from the model ledgers; for a generation-safe checkpoint also
 * its token-store segments with digest status and the ledgers' `generation_cut` records (on their
 * calls in the lineage too: "cut at token k"). It never throws on a damaged
 * directory: whatever still parses is shown, marked unverified when verification found a problem
 * in its file. Nothing is written. Pure over the directory port.
 */
export function inspectDirectory(
  dir: CheckpointDirectory,
  digest: Digest,
  workplace: WorkplaceBase | undefined,
): DirectoryInspection {
  const report = verifyCheckpoint(dir, digest)
  const view = createDirectoryView(dir, digest)
  const problemsAt = new Map<string, string[]>()
  const firstProblem = new Map<string, DirectoryProblemView>()
  for (const p of report.problems) {
    if (p.path === null) continue
    problemsAt.set(p.path, [...(problemsAt.get(p.path) ?? []), p.code])
    if (!firstProblem.has(p.path)) firstProblem.set(p.path, p)
  }
  const verified = (path: string) => (problemsAt.get(path) ?? []).length === 0

  const files: DirectoryFileView[] = [...view.entries.values()].map((e) => ({
    path: e.path,
    kind: e.kind,
    bytes: e.bytes,
    sha256: e.kind === 'file' ? (view.sha256(e.path) ?? '') : '',
    problems: problemsAt.get(e.path) ?? [],
  }))
  for (const [path, codes] of problemsAt) {
    if (!view.entries.has(path) && codes.includes('missing_file'))
      files.push({ path, kind: 'missing', bytes: 0, sha256: '', problems: codes })
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))

  // Manifests, each read on its own so one damaged manifest hides nothing else.
  const marker = readJson(view, CHECKPOINT_MARKER_PATH, checkpointMarkerSchema)
  const aggregate = readJson(view, AGGREGATE_MANIFEST_PATH, aggregateManifestSchema)
  const tokenStore = readJson(view, TOKEN_STORE_MANIFEST_PATH, tokenStoreManifestSchema)
  const agentManifest = readJson(view, `${AGENT_DIR}/${MANIFEST_FILE}`, agentManifestSchema)
  const ledgerServers = serverFolders(view, MODEL_LEDGER_DIR)
  const resourcesServers = serverFolders(view, RESOURCES_DIR)
  const owners: NamespaceOwner[] = aggregate?.participants.map((p) => ({
    kind: p.kind,
    name: p.name,
  })) ?? [
    ...(view.below(AGENT_DIR).length > 0 ? [{ kind: 'agent' as const, name: 'agent' }] : []),
    ...ledgerServers.map((name) => ({ kind: 'policy_model' as const, name })),
    ...resourcesServers.map((name) => ({ kind: 'resources' as const, name })),
  ]
  const listed = new Map<string, readonly string[]>()
  if (agentManifest !== undefined) listed.set(AGENT_DIR, Object.keys(agentManifest.files).sort())

  // Agent boundaries.
  const boundaryRecords: AgentBoundaryRecord[] = []
  const boundaries: DirectoryBoundaryView[] = []
  // every record on disk or named by the manifest, so a damaged or missing one is still listed
  const agentPaths = new Set(dataFiles(view, AGENT_DIR))
  for (const name of agentManifest === undefined ? [] : Object.keys(agentManifest.files))
    agentPaths.add(`${AGENT_DIR}/${name}`)
  for (const path of [...agentPaths].sort()) {
    const record = readJson(view, path, agentBoundaryRecordSchema)
    const problem = firstProblem.get(path)
    if (record === undefined) {
      const name = SNAPSHOT_FILE.exec(path)
      if (!name) continue
      const missing = view.read(path) === undefined
      boundaries.push({
        key: `${name[1]}.a${name[2]}`,
        rollout_id: name[1] as string,
        attempt: Number(name[2]),
        boundary_index: -1,
        turn_index: -1,
        last_committed_model_call_id: null,
        resource_state_revisions: {},
        output_items: 0,
        file: path,
        verified: false,
        problem: problem ?? {
          code: missing ? 'missing_file' : 'unreadable',
          path,
          message: missing ? 'the file is missing' : 'the file does not decode as a record',
        },
      })
      continue
    }
    boundaryRecords.push(record)
    boundaries.push({
      key: executionKey(record),
      rollout_id: record.rollout_id,
      attempt: record.attempt_index,
      boundary_index: record.boundary_index,
      turn_index: record.turn_index,
      last_committed_model_call_id: record.last_committed_model_call_id,
      resource_state_revisions: record.resource_state_revisions,
      output_items: record.output_items.length,
      file: path,
      verified: verified(path),
      ...(problem === undefined ? {} : { problem }),
    })
  }

  // Model ledgers: lineage rows, tombstones and generation cuts.
  const rows: LineageRow[] = []
  const tombstones: ExecutionIdentity[] = []
  const cuts: GenerationCutEntry[] = []
  for (const server of ledgerServers) {
    const folder = `${MODEL_LEDGER_DIR}/${server}`
    const manifest = readJson(view, `${folder}/${MANIFEST_FILE}`, ledgerManifestSchema)
    if (manifest !== undefined) {
      tombstones.push(...manifest.tombstones)
      cuts.push(...(manifest.generation_cuts ?? []))
      listed.set(
        folder,
        Object.values(manifest.rollouts)
          .flatMap((r) => Object.keys(r.files))
          .sort(),
      )
    }
    for (const path of dataFiles(view, folder)) {
      const bytes = view.read(path)
      const lines = bytes === undefined ? undefined : parseJsonLines(bytes)
      if (lines === undefined || !lines.ok) continue
      for (const line of lines.value) {
        const row = lineageRowSchema.safeParse(line)
        if (row.success) rows.push(row.data)
      }
    }
  }

  // Resources snapshots as sessions.
  const environments = new Map<string, Environment>()
  const sessions: DirectorySessionView[] = []
  for (const server of resourcesServers) {
    const folder = `${RESOURCES_DIR}/${server}`
    const manifest = readJson(view, `${folder}/${MANIFEST_FILE}`, resourcesManifestSchema)
    if (manifest !== undefined) listed.set(folder, Object.keys(manifest.files).sort())
    if (!ENVIRONMENTS.includes(server)) continue
    const environment = server as Environment
    // every snapshot on disk or named by the manifest, so a damaged or missing one is still listed
    const paths = new Set(dataFiles(view, folder))
    for (const name of manifest === undefined ? [] : Object.keys(manifest.files))
      paths.add(`${folder}/${name}`)
    for (const path of [...paths].sort()) {
      const bytes = view.read(path)
      const json = bytes === undefined ? undefined : parseJsonFile(bytes)
      const parsed = json?.ok === true ? parseSnapshotFromFile(json.value) : undefined
      const problem = firstProblem.get(path)
      if (parsed === undefined || !parsed.ok) {
        const unread = unreadableSession(path, server, environment, problem, bytes === undefined)
        if (unread !== undefined) sessions.push(unread)
        continue
      }
      const snapshot = parsed.value
      environments.set(snapshot.rollout_id, environment)
      const { detail, summary } = describeSnapshot(server, snapshot, workplace)
      sessions.push({
        row: {
          key: executionKey(snapshot),
          rollout_id: snapshot.rollout_id,
          attempt: snapshot.attempt_index,
          environment,
          state: 'exported',
          revision: snapshot.state_revision,
          session_id: null,
          summary,
        },
        server,
        file: path,
        verified: verified(path),
        detail,
        state: snapshot.state,
        ...(problem === undefined ? {} : { problem }),
      })
    }
  }
  for (const b of boundaryRecords) {
    for (const server of Object.keys(b.resource_state_revisions)) {
      if (ENVIRONMENTS.includes(server) && !environments.has(b.rollout_id))
        environments.set(b.rollout_id, server as Environment)
    }
  }

  const terminal = new Set(
    (aggregate?.live_membership ?? []).filter((m) => m.state === 'terminal').map(executionKey),
  )
  // Generation-safe checkpoints only (a whole-request directory's view is unchanged).
  const segments = tokenStore?.segments === undefined ? [] : segmentViewsOf(view)
  return {
    checkpoint_id:
      marker?.checkpoint_id ??
      aggregate?.checkpoint_id ??
      tokenStore?.checkpoint_id ??
      agentManifest?.checkpoint_id ??
      null,
    valid: report.valid,
    publisher: report.publisher,
    problems: report.problems,
    files,
    timeline: directoryTimeline(
      files.filter((f) => f.kind !== 'missing').map((f) => f.path),
      owners,
      listed,
    ),
    sessions,
    boundaries,
    lineage: directoryLineage({
      rows,
      tombstones,
      boundaries: boundaryRecords,
      terminal,
      environments,
      ...(cuts.length === 0 ? {} : { cuts }),
    }),
    ...(segments.length === 0 ? {} : { segments }),
    ...(cuts.length === 0 ? {} : { generation_cuts: directoryGenerationCuts(cuts) }),
  }
}
