import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MessageView, RunView, TimelineView, TraceEvent } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

describe('the payload panel and the timeline (GET /api/runs/:id/steps/:n/message, /timeline)', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  let straggler: RunView
  let cut: RunView
  let events: TraceEvent[]
  beforeAll(async () => {
    straggler = await api.waitComplete(
      (await api.createRun({ scenario: 'straggler-retirement', seed: 0 })).id,
    )
    cut = await api.waitComplete(
      (await api.createRun({ scenario: 'generation-safe-cut', seed: 0 })).id,
    )
    events = ((await api.json(`/api/runs/${straggler.id}/events`)).body as { events: TraceEvent[] })
      .events
  })
  afterAll(cleanup)

  const message = async (run: RunView, step: number) =>
    (await api.json(`/api/runs/${run.id}/steps/${step}/message`)) as {
      status: number
      body: MessageView
    }

  it('[message-panel] a model request is paired with its response by model_call_id, and the response with its request', async () => {
    const request = events.find(
      (e) => e.type === 'model.request' && e.payload['rollout_id'] === 'r1',
    ) as TraceEvent
    const { status, body } = await message(straggler, request.step)
    expect(status).toBe(200)
    expect(body.event).toEqual(request)
    expect(body.pair.role).toBe('request')
    expect(body.pair.other?.type).toBe('model.response')
    expect(body.pair.other?.payload['model_call_id']).toBe(request.payload['model_call_id'])
    expect(body.pair.by).toBe(`model_call_id ${String(request.payload['model_call_id'])}`)
    const answer = (await message(straggler, body.pair.other?.step as number)).body
    expect(answer.pair).toMatchObject({ role: 'answer', other: { step: request.step } })
    // a control call carries its own answer
    const prepare = events.find((e) => e.type === 'resources.prepare') as TraceEvent
    expect((await message(straggler, prepare.step)).body.pair).toEqual({
      role: 'both',
      other: null,
      by: null,
    })
  })

  it('[message-panel] the state diff lists the participant fields a step changed: the retirement adds r0.a0 to the agent tombstones', async () => {
    const retire = events.find((e) => e.type === 'agent.retire') as TraceEvent
    const { body } = await message(straggler, retire.step)
    const agent = body.changes.filter((c) => c.participant === 'agent')
    expect(agent.find((c) => c.field === 'tombstones')).toMatchObject({ added: ['r0.a0'] })
    expect(body.session).toMatchObject({ key: 'r0.a0' })
    // the prepare call moves the agent's phase
    const prepare = events.find((e) => e.type === 'agent.prepare') as TraceEvent
    const changes = (await message(straggler, prepare.step)).body.changes
    expect(changes.some((c) => c.participant === 'agent' && c.field === 'phase')).toBe(true)
    // an environment call changes the session's revision
    const env = events.find((e) => e.type === 'env.request' && e.outcome === 'ok') as TraceEvent
    const session = (await message(straggler, env.step)).body.session
    expect(session?.after?.revision).not.toBe(session?.before?.revision)
  })

  it('[message-panel] step 0 and a step past the end are refused with invalid_request', async () => {
    for (const step of [0, straggler.events + 1]) {
      const { status, body } = await api.json(`/api/runs/${straggler.id}/steps/${step}/message`)
      expect(status).toBe(400)
      expect(body).toMatchObject({ error: { code: 'invalid_request' } })
    }
  })

  it('[timeline] one lane per rollout in dispatch order, the deadline after prepare, the retired straggler call crossing to it, the restore gap and the continued attempt', async () => {
    const { status, body } = (await api.json(`/api/runs/${straggler.id}/timeline?limit=100`)) as {
      status: number
      body: TimelineView
    }
    expect(status).toBe(200)
    expect(body.rollouts).toBe(straggler.rollouts)
    expect(body.lanes.map((l) => l.rollout)).toEqual(
      Array.from({ length: straggler.rollouts }, (_, i) => `r${i}`),
    )
    const prepare = events.find((e) => e.type === 'agent.prepare') as TraceEvent
    expect(body.deadlines).toEqual([
      { ms: prepare.time_ms + straggler.deadline_ms, step: prepare.step },
    ])
    const r0 = body.lanes[0]?.bars ?? []
    const straggled = r0.find((b) => b.kind === 'model' && b.attempt === 0)
    expect(straggled).toMatchObject({ retired: true })
    expect(straggled?.from_ms).toBeLessThan(body.deadlines[0]?.ms as number)
    expect(straggled?.to_ms).toBeGreaterThanOrEqual(body.deadlines[0]?.ms as number)
    // the delayed request of the retired attempt: a stale bar, retired
    expect(r0.some((b) => b.kind === 'stale' && b.retired && b.attempt === 0)).toBe(true)
    // attempt 1 runs after the restore gap, not retired
    const gap = body.gaps[0]
    expect(gap).toBeDefined()
    expect(
      r0.filter((b) => b.attempt === 1).every((b) => !b.retired && b.from_ms >= (gap?.to_ms ?? 0)),
    ).toBe(true)
    // every bar's step is the step of a message of its rollout
    for (const lane of body.lanes)
      for (const b of lane.bars)
        expect(events[b.step - 1]?.payload['rollout_id']).toBe(lane.rollout)
  })

  it('[timeline] a window of lanes: offset and limit, counts alone with limit 0, a rollout found by index', async () => {
    const win = (await api.json(`/api/runs/${straggler.id}/timeline?offset=3&limit=2&rollout=r7`))
      .body as TimelineView
    expect(win.lanes.map((l) => l.rollout)).toEqual(['r3', 'r4'])
    expect(win.offset).toBe(3)
    expect(win.index).toBe(7)
    const none = (await api.json(`/api/runs/${straggler.id}/timeline?limit=0&step=10`))
      .body as TimelineView
    expect(none.lanes).toEqual([])
    expect(none.now_ms).toBe(events[9]?.time_ms)
    const bad = await api.json(`/api/runs/${straggler.id}/timeline?limit=5000`)
    expect(bad.status).toBe(400)
  })

  it('[timeline] a generation-safe cut: the cut call ends at the cut across the deadline, not retired, and the call of N+1 that continues it is marked continued', async () => {
    const body = (await api.json(`/api/runs/${cut.id}/timeline`)).body as TimelineView
    const r0 = body.lanes.find((l) => l.rollout === 'r0')?.bars ?? []
    const cutCall = r0.find((b) => b.kind === 'model' && b.attempt === 0)
    expect(cutCall?.label).toMatch(/cut at token \d+/)
    expect(cutCall?.retired).toBe(false)
    expect(cutCall?.to_ms).toBeGreaterThanOrEqual(body.deadlines[0]?.ms as number)
    expect(r0.some((b) => b.kind === 'model' && b.attempt === 1 && b.continued)).toBe(true)
  })
})
