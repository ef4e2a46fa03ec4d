// The wire rules of the real stack (docs/real-stack.md) one by one, on Cutover's participant apps
// in this process: what the real NeMo-RL controller and real Gym clients send, and what they read.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AgentBoundaryRecord } from '@cutover/core'
import { AgentParticipant, PolicyModel, commitAgentNamespace } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { agentControlRoutes } from '../agent/agentControlRoutes.ts'
import { checkpointDirUnder } from '../control/checkpointDirUnder.ts'
import { checkpointRootsFromEnv } from '../control/checkpointRootsFromEnv.ts'
import { ChangeSignal } from '../model/ChangeSignal.ts'
import { createModelApp } from '../model/createModelApp.ts'
import { workplaceExamples } from '../participants/workplaceExamples.ts'
import { UsageError } from '../process/io.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'
import { apiHarness } from '../testing/apiHarness.ts'
import { receiptRefusal } from '../testing/realStack.ts'

const TOKEN = 'test-token-real-wire'
const root = mkdtempSync(join(tmpdir(), 'cutover-real-wire-'))
const dataDir = join(root, 'data')
const outside = join(root, 'elsewhere')
mkdirSync(dataDir)
mkdirSync(outside)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const clock = { now: () => Date.now() }
const openDirectory = (path: string, create: boolean) =>
  new NodeCheckpointDirectory(path, { create })
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
const soon = (s = 30): number => Date.now() / 1000 + s

async function call(
  app: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.request(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: init.headers ?? auth,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
const errorOf = (r: { body: Record<string, unknown> }) =>
  r.body['error'] as { code: string; message: string; detail: string }

function modelApp(checkpointRoots?: readonly string[]) {
  return createModelApp({
    model: new PolicyModel(nodeDigest, { serverName: 'policy' }),
    controlToken: TOKEN,
    dataDir,
    ...(checkpointRoots === undefined ? {} : { checkpointRoots }),
    clock,
    openDirectory,
    pid: process.pid,
    digest: nodeDigest,
  })
}

function agentApp() {
  const agent = new AgentParticipant(nodeDigest, 'agent')
  const signal = new ChangeSignal()
  const app = agentControlRoutes({ agent, signal, token: TOKEN, dataDir, clock, openDirectory })
  return { agent, signal, app }
}

const identity = { 'x-nemo-gym-rollout-id': 'r1', 'x-nemo-gym-attempt-index': '0' }
const boundary = (index: number): AgentBoundaryRecord => ({
  rollout_id: 'r1',
  attempt_index: 0,
  boundary_index: index,
  turn_index: index,
  boundary_kind: 'turn_complete',
  output_items: [],
  usage: null,
  last_committed_model_call_id: null,
  resource_state_revisions: {},
  agent_state: {},
  created_at: 0,
})

describe('the real stack on the wire (docs/real-stack.md)', () => {
  it('[wire.schema-version-optional] a control body without schema_version is version 1; version 2 is still refused', async () => {
    const app = modelApp()
    const body = { checkpoint_id: 'ck-sv', deadline_ts: soon() }
    expect(
      await call(app, '/ng-control/v1/model-admission/pause', {
        body: { ...body, schema_version: 2 },
      }),
    ).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(await call(app, '/ng-control/v1/model-admission/pause', { body })).toMatchObject({
      status: 200,
      body: { state: 'paused' },
    })
    expect(await call(app, '/ng-control/v1/model-admission/resume', { body })).toMatchObject({
      status: 200,
      body: { state: 'accepting' },
    })
  })

  it('[wire.model-status-query] the real long-poll query (checkpoint_id, deadline_ts, wait_state, timeout_s) is accepted and ends at deadline_ts', async () => {
    const app = modelApp()
    // A generation in flight keeps the model draining after the pause.
    const slow = call(app, '/v1/responses', {
      body: {
        metadata: {
          cutover_policy: JSON.stringify({
            environment: 'counter',
            task: 0,
            turn: 0,
            observation: null,
            done: false,
            delay_ms: 3000,
          }),
        },
      },
      headers: { ...identity, 'content-type': 'application/json' },
    })
    await new Promise((r) => setTimeout(r, 200))
    const deadline = soon(0.5)
    const cid = 'ck-poll'
    expect(
      await call(app, '/ng-control/v1/model-admission/pause', {
        body: { checkpoint_id: cid, deadline_ts: deadline },
      }),
    ).toMatchObject({ status: 200, body: { state: 'draining' } })
    const query = new URLSearchParams({
      checkpoint_id: cid,
      deadline_ts: String(deadline),
      timeout_s: '600',
      wait_state: 'paused',
    })
    // timeout_s asks for 600 s; the deadline ends the wait first: still draining.
    expect(await call(app, `/ng-control/v1/model-admission/status?${query}`)).toMatchObject({
      status: 200,
      body: { checkpoint_id: cid, state: 'draining' },
    })
    expect((await call(app, `/ng-control/v1/model-admission/status?${query}&other=1`)).status).toBe(
      400,
    )
    expect((await slow).status).toBe(200)
  })

  it('[wire.agent-prepare-waits] prepare answers once every execution is parked on a boundary; at the deadline it is 409 agent_prepare_incomplete with the park reverted and the fence idle; ?wait_ready=0 answers at once', async () => {
    const { agent, signal, app } = agentApp()
    const begun = agent.begin({ rollout_id: 'r1', attempt_index: 0 })
    if (!begun.ok) throw new Error(begun.error.message)
    const generation = begun.value.execution.generation
    agent.leaveBoundary({ rollout_id: 'r1', attempt_index: 0 }, generation)

    const late = await call(app, '/agent-checkpoint/prepare', {
      body: { checkpoint_id: 'ck-late', deadline_ts: soon(0.3) },
    })
    expect(late.status).toBe(409)
    expect(errorOf(late).code).toBe('agent_prepare_incomplete')
    expect(agent.fence.phase).toBe('idle')
    expect(agent.execution({ rollout_id: 'r1', attempt_index: 0 })?.state).toBe('running')
    expect(
      await call(app, '/agent-checkpoint/resume', {
        body: { checkpoint_id: 'ck-late', deadline_ts: soon() },
      }),
    ).toMatchObject({ status: 200 })

    const atOnce = await call(app, '/agent-checkpoint/prepare?wait_ready=0', {
      body: { checkpoint_id: 'ck-at-once', deadline_ts: soon() },
    })
    expect(atOnce).toMatchObject({ status: 200, body: { ready_to_commit: false, running: 1 } })
    await call(app, '/agent-checkpoint/resume', {
      body: { checkpoint_id: 'ck-at-once', deadline_ts: soon() },
    })

    const waiting = call(app, '/agent-checkpoint/prepare', {
      body: { checkpoint_id: 'ck-ready', deadline_ts: soon() },
    })
    await new Promise((r) => setTimeout(r, 300))
    // The execution reaches its next boundary and parks there: the prepare answers ready.
    agent.commitBoundary({ rollout_id: 'r1', attempt_index: 0 }, generation, boundary(1))
    signal.notify()
    expect(await waiting).toMatchObject({
      status: 200,
      body: { ready_to_commit: true, running: 0, parked_with_boundary: 1 },
    })
    expect(agent.fence.phase).toBe('prepared')
  })

  it('[wire.completion-receipt] status lists each completed result with its completion_receipt; acknowledge takes it flat (as the real controller posts it) or wrapped, and answers {acknowledged, idempotent}', async () => {
    const { agent, app } = agentApp()
    const id = { rollout_id: 'r7', attempt_index: 0 }
    const begun = agent.begin(id)
    if (!begun.ok) throw new Error(begun.error.message)
    const done = agent.finish(id, begun.value.execution.generation, 'completed', { reward: 1 })
    if (!done.ok || done.value === null) throw new Error('no receipt')
    const receipt = done.value
    const status = await call(app, '/agent-checkpoint/status?checkpoint_id=actor-delivery')
    const items = status.body['completed_unacknowledged_attempts'] as {
      completion_receipt: unknown
    }[]
    expect(items).toHaveLength(1)
    expect(items[0]?.completion_receipt).toEqual(receipt)
    expect(receiptRefusal(items[0]?.completion_receipt)).toBeNull()

    const wrong = { ...receipt, result_digest: '0'.repeat(64) }
    expect(await call(app, '/agent-checkpoint/acknowledge', { body: wrong })).toMatchObject({
      status: 409,
      body: { error: { code: 'completed_execution_acknowledgement_error' } },
    })
    expect(
      (await call(app, '/agent-checkpoint/acknowledge', { body: { ...receipt, extra: 1 } })).status,
    ).toBe(400)
    expect(await call(app, '/agent-checkpoint/acknowledge', { body: receipt })).toEqual({
      status: 200,
      body: { acknowledged: true, idempotent: false },
    })
    expect(await call(app, '/agent-checkpoint/acknowledge', { body: receipt })).toEqual({
      status: 200,
      body: { acknowledged: true, idempotent: true },
    })
    expect(
      await call(app, '/agent-checkpoint/acknowledge', {
        body: { schema_version: 1, receipt },
      }),
    ).toEqual({ status: 200, body: { acknowledged: true, idempotent: true } })
  })

  it('[wire.model-commit-reads-roots] a commit without continuation_roots takes the roots of the agent namespace in D; with none committed it is 409 ledger_mismatch and nothing is written', async () => {
    const app = modelApp()
    const cid = 'ck-roots'
    const base = { checkpoint_id: cid, deadline_ts: soon() }
    await call(app, '/ng-control/v1/model-admission/pause', { body: base })
    await call(app, `/ng-control/v1/model-admission/status?checkpoint_id=${cid}`)
    const empty = await call(app, '/ng-control/v1/model-checkpoint/commit', {
      body: { ...base, checkpoint_dir: 'ck-roots-none' },
    })
    expect(empty.status).toBe(409)
    expect(errorOf(empty).code).toBe('ledger_mismatch')
    expect(errorOf(empty).message).toMatch(/no continuation_roots given and agent\//)
    const dir = join(dataDir, 'ck-roots')
    expect(
      commitAgentNamespace(openDirectory(dir, true), nodeDigest, {
        checkpoint_id: cid,
        instance_name: 'agent',
        records: [],
      }).ok,
    ).toBe(true)
    expect(
      await call(app, '/ng-control/v1/model-checkpoint/commit', {
        body: { ...base, checkpoint_dir: dir },
      }),
    ).toMatchObject({ status: 200, body: { rollouts: 0 } })
  })

  it('[wire.checkpoint-roots] an absolute checkpoint_dir is accepted under any checkpoint root, elsewhere (or through a symlink below a root) it is 400 path_escape; a relative root is a usage error', async () => {
    const target = join(outside, 'ck-1')
    expect(checkpointDirUnder(dataDir, target)).toMatchObject({
      ok: false,
      error: { code: 'path_escape' },
    })
    expect(checkpointDirUnder(dataDir, target, [dataDir, outside])).toEqual({
      ok: true,
      value: target,
    })
    expect(checkpointDirUnder(dataDir, 'ck-2', [dataDir, outside])).toEqual({
      ok: true,
      value: join(dataDir, 'ck-2'),
    })
    symlinkSync(root, join(outside, 'link'))
    expect(checkpointDirUnder(dataDir, join(outside, 'link', 'x'), [outside])).toMatchObject({
      ok: false,
      error: { code: 'path_escape' },
    })
    expect(checkpointRootsFromEnv(dataDir, {})).toEqual([dataDir])
    expect(
      checkpointRootsFromEnv(dataDir, { CUTOVER_CHECKPOINT_ROOTS: `${outside}:/srv` }),
    ).toEqual([outside, '/srv'])
    expect(() => checkpointRootsFromEnv(dataDir, { CUTOVER_CHECKPOINT_ROOTS: 'rel' })).toThrow(
      UsageError,
    )

    // Over the control routes: refused by default, accepted once the root is named.
    const body = { checkpoint_id: 'ck-out', deadline_ts: soon(), checkpoint_dir: target }
    const refused = await call(modelApp(), '/ng-control/v1/model-checkpoint/restore', { body })
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'path_escape' } } })
    const named = await call(
      modelApp([dataDir, outside]),
      '/ng-control/v1/model-checkpoint/restore',
      {
        body,
      },
    )
    expect(errorOf(named).code).toBe('checkpoint_not_found')

    const child = spawn(process.execPath, [CUTOVER_BIN, 'model'], {
      env: { ...process.env, CUTOVER_CONTROL_TOKEN: TOKEN, CUTOVER_CHECKPOINT_ROOTS: 'relative' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
    const code = await new Promise<number | null>((done) => child.once('exit', done))
    expect(code).toBe(2)
    expect(stderr).toMatch(/CUTOVER_CHECKPOINT_ROOTS holds absolute paths only/)
  })

  it('[wire.plain-responses] cutover model answers plain OpenAI Responses bodies (a Workplace example, the counter, Blackjack) with its scripted policy', async () => {
    const app = modelApp()
    const headers = { ...identity, 'content-type': 'application/json' }
    const example = workplaceExamples()[1]
    const params = example?.responses_create_params as { input: unknown[]; tools: unknown[] }
    const first = await call(app, '/v1/responses', { body: params, headers })
    expect(first.status).toBe(200)
    const truth = (example?.ground_truth as { name: string; arguments: string }[])[0]
    expect(first.body['output']).toMatchObject([
      { type: 'function_call', name: truth?.name, arguments: truth?.arguments },
    ])

    const counter = {
      input: [{ role: 'user', content: 'add 4 then add 5 then get the count' }],
      tools: [
        { type: 'function', name: 'increment_counter' },
        { type: 'function', name: 'get_counter_value' },
      ],
    }
    const h2 = { ...headers, 'x-nemo-gym-rollout-id': 'r2' }
    const turn0 = await call(app, '/v1/responses', { body: counter, headers: h2 })
    expect(turn0.body['output']).toMatchObject([
      { type: 'function_call', name: 'increment_counter', arguments: '{"count":4}' },
    ])
    const turn1 = await call(app, '/v1/responses', {
      body: {
        ...counter,
        input: [
          ...counter.input,
          ...(turn0.body['output'] as unknown[]),
          { type: 'function_call_output', call_id: 'call_0', output: '{"success":true}' },
        ],
      },
      headers: h2,
    })
    expect(turn1.body['output']).toMatchObject([
      { type: 'function_call', name: 'increment_counter', arguments: '{"count":5}' },
    ])

    const h3 = { ...headers, 'x-nemo-gym-rollout-id': 'r3' }
    const hand = (total: number) => ({
      input: [
        { role: 'system', content: 'You are playing Blackjack.' },
        { role: 'user', content: `Your hand: total = ${total}` },
      ],
    })
    expect((await call(app, '/v1/responses', { body: hand(12), headers: h3 })).body).toMatchObject({
      output_text: '<action>hit</action>',
    })
    expect((await call(app, '/v1/responses', { body: hand(19), headers: h3 })).body).toMatchObject({
      output_text: '<action>stand</action>',
    })
  })

  it('[wire.identity-headers] the model accepts x-ng-rollout-id / x-ng-attempt-index as well; both spellings disagreeing, or one header alone, is 409 execution_identity_mismatch', async () => {
    const app = modelApp()
    const body = { input: 'Deal me in.' }
    const older = { 'x-ng-rollout-id': 'r4', 'x-ng-attempt-index': '0' }
    const json = { 'content-type': 'application/json' }
    expect(
      (await call(app, '/v1/responses', { body, headers: { ...json, ...older } })).status,
    ).toBe(200)
    const both = { ...older, 'x-nemo-gym-rollout-id': 'r4', 'x-nemo-gym-attempt-index': '0' }
    expect((await call(app, '/v1/responses', { body, headers: { ...json, ...both } })).status).toBe(
      200,
    )
    for (const headers of [
      { ...both, 'x-nemo-gym-rollout-id': 'r5' },
      { 'x-ng-rollout-id': 'r4' },
    ]) {
      const r = await call(app, '/v1/responses', { body, headers: { ...json, ...headers } })
      expect(r.status).toBe(409)
      expect(errorOf(r).code).toBe('execution_identity_mismatch')
    }
  })

  it('[wire.error-detail] every error body carries detail = message: API, control plane, Gym data plane, host guard', async () => {
    const api = apiHarness(join(root, 'api'))
    const bodies = [
      (await api.json('/api/nope')).body,
      (await call(modelApp(), '/ng-control/v1/capabilities', { headers: {} })).body,
      (
        await api.json('/gym/counter/increment_counter', {
          method: 'POST',
          headers: { ...identity, 'content-type': 'application/json' },
          body: JSON.stringify({ count: 1 }),
        })
      ).body,
      (await call(modelApp(), '/v1/responses', { body: {}, headers: {} })).body,
    ] as { error: { code: string; message: string; detail: string } }[]
    expect(bodies.map((b) => b.error.code)).toEqual([
      'not_found',
      'unauthorized',
      'resources_session_unbound',
      'execution_identity_mismatch',
    ])
    for (const b of bodies) {
      expect(Object.keys(b.error).sort()).toEqual(['code', 'detail', 'message'])
      expect(b.error.detail).toBe(b.error.message)
    }
  })
})
