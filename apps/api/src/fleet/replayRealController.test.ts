// The real NeMo-RL controller's requests (vendor/real_stack/, recorded against Cutover's processes)
// replayed exactly as recorded — their `request` bodies and `query` strings, never the `bridged_*`
// forms the recording proxy had to substitute — against Cutover's participant processes. The
// recording's deadlines are absolute and long past, so the processes run with their clock set back
// to the recording's time (CUTOVER_CLOCK_OFFSET_MS); nothing else is changed.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AggregateParticipant, JsonValue } from '@cutover/core'
import {
  canonicalJson,
  loadLedgerNamespace,
  publishAggregateManifest,
  publishCheckpointMarker,
  publishTokenStoreManifest,
  verifyCheckpoint,
} from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import type { FetchOutcome } from '../control/fetchJson.ts'
import { fetchJson } from '../control/fetchJson.ts'
import type { NamedFleet, RealExchange } from '../testing/realStack.ts'
import {
  readExchanges,
  realControllerRefusal,
  receiptRefusal,
  startNamedFleet,
} from '../testing/realStack.ts'

const TOKEN = 'test-token-real-controller-replay'
const dataDir = mkdtempSync(join(tmpdir(), 'cutover-replay-'))
const fleets: NamedFleet[] = []
afterAll(async () => {
  await Promise.all(fleets.map((f) => f.stop()))
  rmSync(dataDir, { recursive: true, force: true })
})

/**
 * The participants' environment: the clock reads ten seconds before the recording's `t` when the
 * processes start (so the replay, whenever it begins, stays inside every recorded deadline).
 */
const envAt = (t: number): NodeJS.ProcessEnv => ({
  CUTOVER_CONTROL_TOKEN: TOKEN,
  CUTOVER_DATA_DIR: dataDir,
  CUTOVER_CLOCK_OFFSET_MS: String(Math.round(t * 1000 - Date.now() - 10_000)),
})

/** Sends one recorded request exactly as recorded (the token is this test's). */
function send(fleet: NamedFleet, ex: RealExchange): Promise<FetchOutcome> {
  const base = fleet.urls[ex.participant]
  if (base === undefined) throw new Error(`no participant ${ex.participant}`)
  const query = new URLSearchParams(Object.entries(ex.query)).toString()
  const control = ex.path.startsWith('/ng-control/')
  return fetchJson(`${base}${ex.path}${query === '' ? '' : `?${query}`}`, {
    method: ex.method,
    ...(ex.request === null ? {} : { body: ex.request }),
    headers: control ? { authorization: `Bearer ${TOKEN}` } : {},
    timeoutMs: 120_000,
  })
}

interface Answered {
  readonly ex: RealExchange
  readonly answer: FetchOutcome
}

/**
 * Replays one process generation's exchanges in the order they were sent. A `/run` (the harness's
 * dispatch, not the controller's) is sent without waiting; before each later request, every
 * `/run` the recording saw complete before that request was sent is awaited — so rollouts that
 * completed early are released as they were, and the long ones are in flight at prepare.
 */
async function replay(fleet: NamedFleet, exchanges: readonly RealExchange[]): Promise<Answered[]> {
  const answered: Answered[] = []
  let runs: { ex: RealExchange; reply: Promise<FetchOutcome> }[] = []
  for (const ex of exchanges) {
    const due = runs.filter((r) => r.ex.status !== null && r.ex.t + r.ex.ms / 1000 <= ex.t)
    for (const r of due) answered.push({ ex: r.ex, answer: await r.reply })
    runs = runs.filter((r) => !due.includes(r))
    if (ex.path === '/run') runs.push({ ex, reply: send(fleet, ex) })
    else answered.push({ ex, answer: await send(fleet, ex) })
  }
  // Rollouts the recording saw finish are awaited; the others are still parked when this returns
  // (they end with their process).
  for (const r of runs.filter((x) => x.ex.status !== null))
    answered.push({ ex: r.ex, answer: await r.reply })
  return answered
}

const body = (a: Answered): { [key: string]: unknown } =>
  (a.answer.ok ? a.answer.body : null) as { [key: string]: unknown }
const route = (a: Answered): string => `${a.ex.participant} ${a.ex.method} ${a.ex.path}`

/** Every control answer as the real controller parses it; the acknowledged receipts listed. */
function expectAcceptedByRealController(answered: readonly Answered[]): void {
  let lastStatus: { [key: string]: unknown } | null = null
  for (const a of answered) {
    if (!a.ex.path.startsWith('/ng-control/')) continue
    expect(a.answer.ok, route(a)).toBe(true)
    if (!a.answer.ok) continue
    const why = realControllerRefusal(
      a.ex.participant,
      a.ex.method,
      a.ex.path,
      a.answer.status,
      a.answer.body,
    )
    expect(why, `${route(a)}: ${JSON.stringify(a.answer.body).slice(0, 400)}`).toBeNull()
    if (a.ex.path.endsWith('agent-checkpoint/status')) lastStatus = body(a)
    if (a.ex.path.endsWith('agent-checkpoint/acknowledge')) {
      // The release posts the one receipt status listed for the identity, exactly as issued.
      expect(receiptRefusal(a.ex.request)).toBeNull()
      const listed = (
        (lastStatus?.['completed_unacknowledged_attempts'] ?? []) as {
          completion_receipt: unknown
        }[]
      ).filter(
        (x) =>
          canonicalJson(x.completion_receipt as JsonValue) ===
          canonicalJson(a.ex.request as JsonValue),
      )
      expect(listed, route(a)).toHaveLength(1)
      expect(body(a)).toEqual({ acknowledged: true, idempotent: false })
    }
  }
}

describe('the real NeMo-RL controller, replayed (d1-adapted-cycle, as recorded)', () => {
  it('[wire.replay-real-cycle] [wire.schema-version-optional] [wire.model-status-query] [wire.agent-prepare-waits] [wire.completion-receipt] [wire.model-commit-reads-roots] [wire.participant-id-order] prepare → commit → restore into replacements → resume: every answer is one the real controller accepts, the checkpoint verifies, and every continued rollout finishes', async () => {
    const recorded = readExchanges('d1-adapted-cycle')
    const originals = recorded.filter((e) => e.label === 'original')
    const replacements = recorded.filter((e) => e.label === 'replacement')

    const first = await startNamedFleet(envAt(originals[0]?.t ?? 0))
    fleets.push(first)
    const before = await replay(first, originals)
    expectAcceptedByRealController(before)
    const find = (answered: readonly Answered[], participant: string, path: string) =>
      answered.find((a) => a.ex.participant === participant && a.ex.path.endsWith(path))

    // Bodies without schema_version; the agent's prepare answers once every rollout is parked.
    const prepare = find(before, 'agent', 'agent-checkpoint/prepare')
    expect(prepare?.ex.request).not.toHaveProperty('schema_version')
    expect(body(prepare as Answered)).toMatchObject({ ready_to_commit: true, running: 0 })
    expect(body(prepare as Answered)['parked_with_boundary']).toBe(4)
    const status = find(before, 'policy', 'model-admission/status')
    expect(Object.keys(status?.ex.query ?? {})).toEqual([
      'checkpoint_id',
      'deadline_ts',
      'timeout_s',
      'wait_state',
    ])
    // Commit in participant-id order; the model, sent no roots, commits the agent's.
    const commits = before.filter((a) => a.ex.path.endsWith('/commit'))
    expect(commits.map((a) => a.ex.participant)).toEqual([
      'agent',
      'blackjack',
      'counter',
      'policy',
      'workplace',
    ])
    const agentRoots = body(commits[0] as Answered)['continuation_roots'] as unknown[]
    expect(agentRoots).toHaveLength(4)
    expect(commits[3]?.ex.request).not.toHaveProperty('continuation_roots')
    expect(body(commits[3] as Answered)).toMatchObject({ rollouts: 4, excluded_inactive: 2 })

    // What the participants committed, in that order, seals and verifies (a copy, sealed by
    // Cutover's directory layer: the real controller would write only its aggregate).
    const dir = join(dataDir, 'data', 'ck-real-1')
    const sealed = join(dataDir, 'sealed')
    cpSync(dir, sealed, { recursive: true })
    const copy = new NodeCheckpointDirectory(sealed, { create: false })
    const ledger = loadLedgerNamespace(copy, nodeDigest, 'policy')
    const keys = ledger.ok ? ledger.value.manifest.storage_references.map((r) => r.key).sort() : []
    const snap = await fetchJson(
      `${first.urls['policy']}/ng-control/v1/model-checkpoint/token-snapshot`,
      {
        method: 'POST',
        body: { checkpoint_id: 'ck-real-1', deadline_ts: 0, staging_keys: keys },
        headers: { authorization: `Bearer ${TOKEN}` },
      },
    )
    const participants: AggregateParticipant[] = [
      ['agent', 'agent'],
      ['blackjack', 'resources'],
      ['counter', 'resources'],
      ['policy', 'policy_model'],
      ['workplace', 'resources'],
    ].map(([name, kind]) => ({
      participant_id: name as string,
      name: name as string,
      base_url: first.urls[name as string] as string,
      kind: kind as AggregateParticipant['kind'],
      capabilities: {},
    }))
    expect(
      publishAggregateManifest(copy, nodeDigest, {
        checkpoint_id: 'ck-real-1',
        participants,
        participant_results: {},
        live_membership: [],
      }).ok,
    ).toBe(true)
    expect(
      publishTokenStoreManifest(copy, nodeDigest, {
        checkpoint_id: 'ck-real-1',
        staging_keys: keys,
        snapshot: (snap.ok ? (snap.body as { snapshot: JsonValue }).snapshot : null) ?? null,
      }).ok,
    ).toBe(true)
    expect(publishCheckpointMarker(copy, nodeDigest, { checkpoint_id: 'ck-real-1' }).ok).toBe(true)
    expect(verifyCheckpoint(copy, nodeDigest)).toEqual({
      valid: true,
      problems: [],
      publisher: 'cutover',
    })

    // The originals go, as in the recording; their parked /run requests end with them.
    await first.stop()
    const second = await startNamedFleet(envAt(replacements[0]?.t ?? 0), ['--restore-expected'])
    fleets.push(second)
    const after = await replay(second, replacements)
    expectAcceptedByRealController(after)
    const restored = body(find(after, 'agent', 'agent-checkpoint/restore') as Answered)
    expect(restored['continuations']).toEqual(['r1.a1', 'r2.a1', 'r4.a1', 'r5.a1'])
    const finished = after.filter((a) => a.ex.path === '/run')
    expect(
      finished.map((a) => [
        (a.ex.request as { rollout_id: string }).rollout_id,
        a.answer.ok ? a.answer.status : a.answer.code,
        body(a)?.['reward'],
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['r1', 200, 1],
        ['r2', 200, 1],
        ['r4', 200, 1],
        ['r5', 200, 1],
      ]),
    )
    expect(finished).toHaveLength(4)
    // Every continued rollout's result was released with its exact receipt.
    expect(after.filter((a) => a.ex.path.endsWith('/acknowledge'))).toHaveLength(4)
  }, 300_000)
})
