import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../../adapters/nodeWorkplaceData.ts'
import type { JsonValue } from '../../json.ts'
import { diffSummary, diffTables } from './diffTables.ts'
import { routeToolCall } from './routeToolCall.ts'
import { toSplit } from './splitTable.ts'
import { createWorkplaceCodec } from './workplaceCodec.ts'
import { parseWorkplaceBase } from './WorkplaceData.ts'
import type { WorkplaceSession } from './WorkplaceSession.ts'
import { freshSession, SESSION_TABLES } from './WorkplaceSession.ts'
import { createWorkplaceServer } from './workplaceServer.ts'

const base = parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)
const delta = createWorkplaceCodec(base)
const full = createWorkplaceCodec(base, { form: 'full' })

function play(calls: [string, Record<string, JsonValue>][]): WorkplaceSession {
  let s = freshSession(base)
  for (const [name, args] of calls) s = routeToolCall(base, s, name, args).session
  return s
}
const busy = () =>
  play([
    ['email_delete_email', { email_id: '00000010' }],
    ['email_send_email', { recipient: 'a@b.c', subject: 's', body: 'b' }],
    [
      'calendar_create_event',
      {
        event_name: 'x',
        participant_email: 'a@b.c',
        event_start: '2023-12-01 10:00:00',
        duration: 60,
      },
    ],
    [
      'calendar_update_event',
      { event_id: '00000252', field: 'event_name', new_value: 'Risk Management Forum' },
    ],
    [
      'analytics_create_plot',
      { time_min: 'a', time_max: 'b', value_to_plot: 'total_visits', plot_type: 'bar' },
    ],
    ['analytics_get_average_session_duration', {}],
    ['project_management_delete_task', { task_id: '00000149' }],
    [
      'customer_relationship_manager_add_customer',
      { customer_name: 'N', assigned_to_email: 'a@b.c', status: 'Lead' },
    ],
  ])
const roundTrip = (codec: typeof delta, s: WorkplaceSession) => {
  const e = codec.exportState(s)
  if (!e.ok) throw new Error(e.error.message)
  const r = codec.restoreState(JSON.parse(JSON.stringify(e.value)) as JsonValue)
  if (!r.ok) throw new Error(r.error.message)
  return { state: e.value, restored: r.value }
}

describe('[wa-codec] Workplace checkpoint codec', () => {
  it('a pristine session exports an empty delta', () => {
    const { state, restored } = roundTrip(delta, freshSession(base))
    expect(state).toEqual({
      form: 'delta',
      version: 1,
      base_digest: base.digest,
      session_duration_float: false,
      tables: {},
    })
    expect(restored.tables.emails).toBe(base.tables.emails)
  })

  it('delta and full forms restore tables identical to the live ones, labels and order included', () => {
    const live = busy()
    for (const codec of [delta, full]) {
      const { restored } = roundTrip(codec, live)
      expect(restored.sessionDurationFloat).toBe(true)
      for (const name of SESSION_TABLES)
        expect(toSplit(restored.tables[name]), name).toEqual(toSplit(live.tables[name]))
    }
  })

  it('the delta holds only changed rows and label runs, and is much smaller than the full form', () => {
    const live = busy()
    const d = roundTrip(delta, live).state as { tables: Record<string, { rows: unknown[] }> }
    expect(Object.keys(d.tables).sort()).toEqual([...SESSION_TABLES].sort())
    const literals = Object.values(d.tables).flatMap((t) =>
      t.rows.filter((seg) => 'row' in (seg as object)),
    )
    // new email, new event, updated event, new plot, new customer
    expect(literals).toHaveLength(5)
    expect(JSON.stringify(d).length * 20).toBeLessThan(
      JSON.stringify(roundTrip(full, live).state).length,
    )
  })

  it('a full snapshot restored then re-exported as a delta is still minimal', () => {
    const restored = roundTrip(full, busy()).restored
    const again = delta.exportState(restored)
    expect(again.ok && again.value).toEqual(
      delta.exportState(busy()).ok && (delta.exportState(busy()) as { value: JsonValue }).value,
    )
  })

  it('rejects a delta against another base and malformed states', () => {
    const state = roundTrip(delta, busy()).state as Record<string, JsonValue>
    const other = delta.restoreState({ ...state, base_digest: '0'.repeat(64) })
    expect(!other.ok && other.error.code).toBe('unsafe_resources_restore')
    expect(delta.restoreState({ ...state, version: 2 }).ok).toBe(false)
    expect(delta.restoreState({ ...state, tables: { nope: {} } }).ok).toBe(false)
    expect(
      delta.restoreState({
        ...state,
        tables: { emails: { labels: [[0, 3]], rows: [{ base: [0, 2] }] } },
      }).ok,
    ).toBe(false)
    expect(
      delta.restoreState({
        ...state,
        tables: { emails: { labels: [[0, 1]], rows: [{ base: [600, 1] }] } },
      }).ok,
    ).toBe(false)
    expect(
      delta.restoreState({
        ...state,
        tables: { emails: { labels: [[0, 1]], rows: [{ row: [1] }] } },
      }).ok,
    ).toBe(false)
    const f = roundTrip(full, busy()).state as { tables: Record<string, JsonValue> }
    expect(
      full.restoreState({
        ...f,
        tables: { ...f.tables, emails: { columns: ['x'], index: [], data: [] } },
      } as JsonValue).ok,
    ).toBe(false)
  })

  it('describe counts rows changed against the base; diffTables marks added, changed and removed rows by label', () => {
    const live = busy()
    const views = diffTables(base.tables, live.tables)
    const cal = views.find((v) => v.name === 'calendar_events')
    const updated = cal?.rows.find((r) => r.cells[0] === '00000252')
    expect(updated?.status).toBe('changed')
    expect(updated?.changed).toEqual([1])
    // the new event has label 0: it pairs with nothing (label 0 is already taken by row 0) and is
    // added
    expect(cal?.rows.at(-1)?.status).toBe('added')
    const tasks = views.find((v) => v.name === 'project_tasks')
    expect(tasks?.removed.map((r) => r.cells[0])).toEqual(['00000149'])
    expect(diffSummary(views).added).toBeGreaterThanOrEqual(3)
    expect(delta.describe(freshSession(base))).toBe('0 rows changed')
    expect(delta.describe(live)).toMatch(/^\d+ rows changed$/)
  })
})

describe('[wa-server] Workplace server routes', () => {
  const server = createWorkplaceServer(base)
  it('needs seed_session, then runs tools with route semantics; verify ignores live state', () => {
    expect(
      server.handle('/email_delete_email', { email_id: '00000010' }, undefined).response,
    ).toEqual({
      status: 400,
      body: { detail: 'Session not initialized. Please call seed_session first.' },
    })
    const seeded = server.handle('/seed_session', { anything: 1 }, undefined)
    expect(seeded.response).toEqual({ status: 200, body: {} })
    const del = server.handle('/email_delete_email', { email_id: '00000010' }, seeded.session)
    expect(del.response).toEqual({ status: 200, body: { output: 'Email deleted successfully.' } })
    const ex = base.examples[0]!
    const gt = ex.ground_truth as { name: string; arguments: string }[]
    const body = {
      responses_create_params: ex.responses_create_params,
      response: { output: gt.map((c, i) => ({ type: 'function_call', call_id: `c${i}`, ...c })) },
      ground_truth: gt,
      id: 0,
      category: ex.category,
      environment_name: 'workplace_assistant',
    }
    const v = server.handle('/verify', { ...body, undeclared: true }, del.session)
    expect(Object.keys(v.response.body as object)).toEqual([
      'responses_create_params',
      'response',
      'ground_truth',
      'id',
      'category',
      'environment_name',
      'reward',
    ])
    expect(v.response.body).toMatchObject({ reward: 1, id: 0 })
    expect(v.session).toBe(del.session)
    expect(
      server.handle('/verify', { ...body, response: { output: [] } }, del.session).response.body,
    ).toMatchObject({ reward: 0 })
    expect(server.handle('/verify', { response: {} }, del.session).response.status).toBe(422)
    expect(server.routeKind('/email_delete_email', 'POST')).toBe('mutation')
    expect(server.routeKind('/seed_session', 'POST')).toBe('start')
  })
})
