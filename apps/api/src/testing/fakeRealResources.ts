import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isAbsolute, join, resolve } from 'node:path'
import { REAL_STACK, readExchanges } from './realStack.ts'

/** The recorded run whose real resources participants this fake stands in for. */
const RUN = 'd2-commit-real-resources'
/** The checkpoint id the recorded files belong to. */
export const RECORDED_CHECKPOINT_ID = 'ck-d2-1'

/** Every request the fake received: what Cutover's controller sent the real participant. */
export interface FakeRequest {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

/** A running fake: its URL, what it received, and how to stop it. */
export interface FakeResources {
  readonly url: string
  readonly requests: FakeRequest[]
  close(): Promise<void>
}

type Phase = 'idle' | 'prepared' | 'committed_paused' | 'restored_paused'

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/**
 * A stand-in for the real Gym resources participant (`nemo_gym/checkpoint/{control,resources}.py`,
 * the generation that ran in vendor/real_stack/d2-*), which cannot run here (its pydantic v2 and
 * FastAPI are not installed). It answers exactly as the recorded participant did — its recorded
 * capabilities, `{sessions, state}` to prepare, `{sessions, manifest_digest}` to commit,
 * `{sessions, source_checkpoint_id}` to restore, `{state}` to resume, refusals as
 * `{"error": {"code", "detail"}}`, 422 for a body its strict models refuse — and writes the
 * recorded v1 files (manifest and ResourceSnapshot schema 1, byte for byte) under the
 * `checkpoint_dir` it is sent, resolving a relative one against its own working directory as the
 * real one does. Its fence replays a repeated operation, refuses a finished id and a wrong phase.
 * `misfit` makes restore answer a body that does not fit (a string `sessions`).
 */
export async function startFakeRealResources(
  name: 'blackjack' | 'counter' | 'workplace',
  token: string,
  options: { readonly misfit?: boolean } = {},
): Promise<FakeResources> {
  const recorded = readExchanges(RUN).find(
    (e) => e.participant === `resources_${name}` && e.path === '/ng-control/v1/capabilities',
  )?.response as { [key: string]: unknown }
  const source = join(REAL_STACK, RUN, 'data', RECORDED_CHECKPOINT_ID, 'resources', name)
  const files = readdirSync(source).sort()
  const manifestBytes = readFileSync(join(source, 'manifest.json'))
  const sessions = files.filter((f) => f !== 'manifest.json').length
  const requests: FakeRequest[] = []
  let phase: Phase = 'idle'
  let active: string | null = null
  let deadline: number | null = null
  const results = new Map<string, unknown>()
  const retired = new Set<string>()

  const reply = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  const refuse = (res: ServerResponse, code: string, detail: string): void =>
    reply(res, 409, { error: { code, detail } })

  const handle = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const path = (req.url ?? '').split('?')[0] ?? ''
    let body: unknown = null
    try {
      body = text === '' ? null : JSON.parse(text)
    } catch {
      return reply(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'] }] })
    }
    requests.push({ method: req.method ?? '', path, body })
    if (req.headers.authorization !== `Bearer ${token}`)
      return reply(res, 401, { detail: 'missing or invalid control token' })
    if (req.method === 'GET' && path === '/ng-control/v1/capabilities')
      return reply(res, 200, {
        ...recorded,
        phase,
        active_checkpoint_id: active,
        deadline_ts: deadline,
      })
    const op = /^\/ng-control\/v1\/resources-checkpoint\/(prepare|commit|restore|resume)$/.exec(
      path,
    )
    if (req.method !== 'POST' || op === null) return reply(res, 404, { detail: 'Not Found' })
    const operation = op[1] as 'prepare' | 'commit' | 'restore' | 'resume'
    // CheckpointControlRequest (extra="forbid"), with checkpoint_dir for commit and restore.
    const b = body as { [key: string]: unknown } | null
    const allowed = new Set(['schema_version', 'checkpoint_id', 'deadline_ts'])
    if (operation === 'commit' || operation === 'restore') allowed.add('checkpoint_dir')
    if (
      b === null ||
      typeof b !== 'object' ||
      Object.keys(b).some((k) => !allowed.has(k)) ||
      (b['schema_version'] !== undefined && b['schema_version'] !== 1) ||
      typeof b['checkpoint_id'] !== 'string' ||
      typeof b['deadline_ts'] !== 'number' ||
      (allowed.has('checkpoint_dir') && typeof b['checkpoint_dir'] !== 'string')
    )
      return reply(res, 422, { detail: [{ type: 'value_error', loc: ['body'] }] })
    const cid = b['checkpoint_id'] as string
    const key = `${cid}:${operation}`
    if (results.has(key)) return reply(res, 200, results.get(key))
    if (retired.has(cid))
      return refuse(res, 'stale_checkpoint', `checkpoint ${JSON.stringify(cid)} already finished`)
    if (active !== null && active !== cid)
      return refuse(res, 'checkpoint_conflict', `checkpoint ${JSON.stringify(active)} is active`)
    const from: { readonly [K in typeof operation]: readonly Phase[] } = {
      prepare: ['idle'],
      commit: ['prepared'],
      restore: ['idle'],
      resume: ['prepared', 'committed_paused', 'restored_paused'],
    }
    if (!from[operation].includes(phase))
      return refuse(res, 'invalid_phase', `operation not valid in phase '${phase}'`)
    const dir = (): string => {
      const given = b['checkpoint_dir'] as string
      return join(isAbsolute(given) ? given : resolve(process.cwd(), given), 'resources', name)
    }
    let result: unknown
    if (operation === 'prepare') {
      result = { sessions, state: 'prepared' }
      phase = 'prepared'
      deadline = b['deadline_ts'] as number
    } else if (operation === 'commit') {
      const target = dir()
      mkdirSync(target, { recursive: true })
      if (existsSync(join(target, 'manifest.json')))
        return refuse(res, 'resources_checkpoint_error', 'resources checkpoint already committed')
      for (const file of files.filter((f) => f !== 'manifest.json'))
        writeFileSync(join(target, file), readFileSync(join(source, file)))
      writeFileSync(join(target, 'manifest.json'), manifestBytes)
      result = { sessions, manifest_digest: sha256(manifestBytes) }
      phase = 'committed_paused'
    } else if (operation === 'restore') {
      const target = dir()
      if (!existsSync(join(target, 'manifest.json')))
        return refuse(res, 'resources_checkpoint_error', 'resources checkpoint has no manifest')
      const manifest = JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')) as {
        checkpoint_id: string
        files: { [file: string]: string }
      }
      for (const [file, digest] of Object.entries(manifest.files))
        if (!existsSync(join(target, file)) || sha256(readFileSync(join(target, file))) !== digest)
          return refuse(res, 'resources_checkpoint_error', `state ${file} is missing or corrupted`)
      result = options.misfit
        ? { sessions: 'two', source_checkpoint_id: manifest.checkpoint_id }
        : {
            sessions: Object.keys(manifest.files).length,
            source_checkpoint_id: manifest.checkpoint_id,
          }
      phase = 'restored_paused'
    } else {
      result = { state: 'accepting' }
      phase = 'idle'
      retired.add(cid)
      active = null
      deadline = null
      for (const k of [...results.keys()]) if (k.startsWith(`${cid}:`)) results.delete(k)
      results.set(key, result)
      return reply(res, 200, result)
    }
    active = cid
    results.set(key, result)
    return reply(res, 200, result)
  }

  const server: Server = createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => handle(req, res, text))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  }
}
