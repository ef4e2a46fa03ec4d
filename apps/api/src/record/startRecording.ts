import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isAbsolute, resolve } from 'node:path'
import type { RecordingProxyView, RunView } from '@cutover/core/contracts'
import { INVARIANT_IDS, RECORDED_SCENARIO } from '@cutover/core/contracts'
import type { RunStore } from '../store/RunStore.ts'
import { createRecordingProxy } from './createRecordingProxy.ts'
import { createRedactor } from './createRedactor.ts'
import { openRecordingWriter } from './RecordingWriter.ts'
import { RecordingTail } from './RecordingTail.ts'
import { recordedRunView, recordingFacts } from './recordedRunView.ts'

/** One participant to stand in front of: its name in the recording and its server. */
export interface Upstream {
  readonly name: string
  readonly url: URL
}

/** What `cutover record` sets up. */
export interface RecordingSetup {
  readonly runId: string
  readonly store: RunStore
  readonly upstreams: readonly Upstream[]
  readonly host: string
  /** First port (the n-th proxy listens on `portBase + n`); undefined: free ports. */
  readonly portBase?: number | undefined
  readonly runName: string | null
  readonly maxBodyBytes: number
  /** Secrets the recording must never hold besides those it learns (the control token). */
  readonly secrets: readonly (string | undefined)[]
  /** Wall-clock ISO time for `created_at`. */
  readonly createdAt: string
  /** Where a relative `checkpoint_dir` resolves (the recorder's working directory). */
  readonly cwd: string
  readonly pid: number
  /** Called with the absolute path of each checkpoint directory an accepted control call names. */
  readonly onCheckpointDir?: (path: string) => void
  /** How long `close()` waits for exchanges in flight before cutting them off (default 2 s). */
  readonly graceMs?: number
}

/** A recording under way. */
export interface Recording {
  readonly view: RunView
  readonly proxies: readonly RecordingProxyView[]
  /**
   * Stops the proxies (exchanges in flight get `graceMs`, then are cut off and recorded as such),
   * syncs and closes the recording and stores the run as complete.
   */
  close(): Promise<RunView>
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolvePort((server.address() as AddressInfo).port)
    })
  })
}

/**
 * Starts one recording proxy per upstream (docs/recording.md), all writing one append-only
 * recording in the run's folder (`runs/<id>/exchanges.jsonl`), and stores the run (kind
 * `recorded`, status `running`, the recorder's pid) so a server on the same data directory lists it
 * and follows it live. Refuses (throws) when a port cannot be bound; nothing is left listening.
 */
export async function startRecording(setup: RecordingSetup): Promise<Recording> {
  const { store, runId } = setup
  const redactor = createRedactor(setup.secrets)
  const path = store.recordingPath(runId)
  const base: RunView = {
    id: runId,
    kind: 'recorded',
    scenario: RECORDED_SCENARIO,
    seed: '0',
    rollouts: 0,
    deadline_ms: 0,
    faults: [],
    inert_faults: [],
    status: 'running',
    created_at: setup.createdAt,
    events: 0,
    outcome: null,
    checkpoints: [],
    damaged: [],
    invariants: Object.fromEntries(
      INVARIANT_IDS.map((id) => [id, 'pass']),
    ) as RunView['invariants'],
    failures: [],
    recording: {
      name: setup.runName,
      source: 'record',
      exchanges: 0,
      participants: [],
      proxies: [],
      recorder_pid: setup.pid,
      root: setup.cwd,
      checkpoint_dirs: [],
      problems: [],
      directories: [],
      checks: [],
    },
  }
  store.writeRun(base)
  const writer = openRecordingWriter(path)
  let inFlight = 0
  const idle: (() => void)[] = []
  const servers: Server[] = []
  const proxies: RecordingProxyView[] = []
  try {
    for (const [i, upstream] of setup.upstreams.entries()) {
      const server = createRecordingProxy({
        name: upstream.name,
        upstream: upstream.url,
        redactor,
        maxBodyBytes: setup.maxBodyBytes,
        record: (line) => {
          writer.append(line)
          inFlight--
          if (inFlight === 0) for (const wake of idle.splice(0)) wake()
        },
        onCheckpointDir: (dir) =>
          setup.onCheckpointDir?.(isAbsolute(dir) ? resolve(dir) : resolve(setup.cwd, dir)),
      })
      server.on('request', () => inFlight++)
      servers.push(server)
      const port = await listen(
        server,
        setup.host,
        setup.portBase === undefined ? 0 : setup.portBase + i,
      )
      const host = setup.host.includes(':') ? `[${setup.host}]` : setup.host
      proxies.push({
        name: upstream.name,
        url: `http://${host}:${port}`,
        upstream: upstream.url.href.replace(/\/$/, ''),
      })
    }
  } catch (error) {
    for (const s of servers) s.close()
    await writer.close()
    store.removeRun(runId)
    throw error
  }
  const view: RunView = {
    ...base,
    recording: { ...(base.recording as NonNullable<RunView['recording']>), proxies },
  }
  store.writeRun(view)

  let closing: Promise<RunView> | undefined
  const close = async (): Promise<RunView> => {
    for (const s of servers) s.close()
    if (inFlight > 0)
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, setup.graceMs ?? 2000)
        idle.push(() => {
          clearTimeout(timer)
          wake()
        })
      })
    // Exchanges still open (a long poll, a stream) are cut off: each is recorded as cut.
    for (const s of servers) s.closeAllConnections()
    await new Promise((r) => setImmediate(r))
    await writer.close()
    const tail = new RecordingTail(path)
    tail.finish()
    const recording = view.recording as NonNullable<RunView['recording']>
    const finished = recordedRunView(view, tail, recordingFacts(tail.events, recording), true)
    store.writeRun(finished)
    return finished
  }
  return {
    view,
    proxies,
    close: () => (closing ??= close()),
  }
}
