import { resolve } from 'node:path'
import { Controller } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import type { ControlCallRecord } from './controlCall.ts'
import type { FleetUrls } from './discoverFleet.ts'
import { discoverFleet } from './discoverFleet.ts'
import { HttpFleet } from './HttpFleet.ts'
import type { ControllerTraceEntry } from './RealTimeHost.ts'
import { RealTimeHost } from './RealTimeHost.ts'

/** How one half of the transaction ended. */
export type CheckpointHalfOutcome =
  | { readonly kind: 'usage'; readonly message: string }
  | {
      readonly kind: 'done'
      readonly ok: boolean
      readonly phase: string
      readonly reason: string | null
      readonly events: readonly ControllerTraceEntry[]
    }

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * `cutover checkpoint commit|restore` against a fleet the user runs: the core `Controller` over the
 * `HttpFleet` performs only that half. commit: the prepared participants commit (agent → model with
 * the agent's continuation roots → resources), then the aggregate manifest, the token-store
 * snapshot and `checkpoint.json` are published into `<dataDir>/<cid>`; nothing is restored.
 * restore: the published checkpoint is verified, the committed participant set compared with the
 * fleet's, and every participant restored (model, agent, resources), left restored and paused for a
 * `resume`; a refused restore resumes every participant it was sent to.
 */
export async function runCheckpointHalf(
  op: 'commit' | 'restore',
  urls: FleetUrls,
  token: string,
  cid: string,
  dataDir: string,
  record: (r: ControlCallRecord) => void,
): Promise<CheckpointHalfOutcome> {
  const endpoints = await discoverFleet(urls, token, record)
  if (!endpoints.ok) return { kind: 'usage', message: endpoints.error.message }
  const fleet = new HttpFleet(endpoints.value, {
    token,
    generation: op === 'restore' ? 1 : 0,
    // Absolute, as the real controller sends it (a participant resolves a relative path itself).
    checkpointDir: (id) => resolve(dataDir, id),
    digest: nodeDigest,
    record,
  })
  let finished = false
  const host = new RealTimeHost({
    dataDir,
    digest: nodeDigest,
    fleet,
    openDirectory: (path, create) => new NodeCheckpointDirectory(path, { create }),
    // commit alone: published is where it ends (no replacement processes, no restore).
    published: () => {
      finished = true
      return new Promise<HttpFleet>(() => undefined)
    },
    freezeDispatch: () => undefined,
    afterResume: () => (finished = true),
    liveMembership: () => [],
  })
  if (op === 'restore') host.restoreInto(fleet)
  const controller = new Controller(host, 30_000, {}, 1)
  if (op === 'commit') controller.commitPrepared(cid)
  else controller.restorePublished(cid)
  while (
    !finished &&
    host.failure === null &&
    controller.stage !== 'restored' &&
    controller.stage !== 'aborted' &&
    controller.stage !== 'done'
  )
    await sleep(20)
  await host.settled()
  if (host.failure !== null) throw host.failure
  const abort = host.trace.find(
    (e) => e.type === 'controller.abort' || e.type === 'controller.restore_abandoned',
  )
  const reason = (abort?.payload as { reason?: string } | undefined)?.reason ?? null
  const ok =
    op === 'commit' ? finished && controller.stage !== 'aborted' : controller.stage === 'restored'
  return {
    kind: 'done',
    ok,
    phase: ok ? (op === 'commit' ? 'committed' : 'restored') : 'aborted',
    reason,
    events: host.trace,
  }
}
