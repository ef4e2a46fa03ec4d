import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { JsonValue } from '../json.ts'
import { createBlackjackServer } from './blackjack/blackjackServer.ts'
import { createCounterServer } from './counter/counterServer.ts'
import type { EnvironmentServer } from './EnvironmentServer.ts'
import { toSplit } from './workplace/splitTable.ts'
import { parseWorkplaceBase } from './workplace/WorkplaceData.ts'
import { createWorkplaceServer } from './workplace/workplaceServer.ts'
import type { WorkplaceSession } from './workplace/WorkplaceSession.ts'
import { SESSION_TABLES } from './workplace/WorkplaceSession.ts'

type Call = readonly [string, JsonValue]

/**
 * Runs calls uninterrupted, and again with export → JSON → restore before call `cut`; both runs
 * must give the same responses and the same exported end state.
 */
function checkEquivalence<S>(
  server: EnvironmentServer<S>,
  calls: readonly Call[],
  cut: number,
  view: (s: S | undefined) => unknown,
): void {
  const straight: JsonValue[] = []
  let a: S | undefined
  for (const [path, body] of calls) {
    const r = server.handle(path, body, a)
    straight.push(r.response.body)
    a = r.session
  }
  const resumed: JsonValue[] = []
  let b: S | undefined
  calls.forEach(([path, body], i) => {
    if (i === cut && b !== undefined) {
      const exported = server.codec.exportState(b)
      expect(exported.ok).toBe(true)
      if (!exported.ok) return
      const before = JSON.stringify(view(b))
      const restored = server.codec.restoreState(
        JSON.parse(JSON.stringify(exported.value)) as JsonValue,
      )
      expect(restored.ok).toBe(true)
      if (!restored.ok) return
      expect(JSON.stringify(view(restored.value))).toBe(before)
      b = restored.value
    }
    const r = server.handle(path, body, b)
    resumed.push(r.response.body)
    b = r.session
  })
  expect(resumed).toEqual(straight)
  expect(view(b)).toEqual(view(a))
}

const rcp = { input: [] }
const say = (text: string) => ({
  responses_create_params: rcp,
  response: { output: [{ type: 'message', content: text }] },
})

describe('[equivalence] snapshot → restore → continue equals an uninterrupted session', () => {
  it('blackjack, random seeds and actions', () => {
    const server = createBlackjackServer({ seedForUnseededReset: () => 99n })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 1n << 80n }),
        fc.array(fc.constantFrom('<action>hit</action>', '<action>stand</action>', 'hmm'), {
          maxLength: 6,
        }),
        fc.nat(7),
        (seed, actions, cut) => {
          const calls: Call[] = [
            ['/reset', { responses_create_params: rcp, seed: seed.toString() }],
            ...actions.map((t) => ['/step', say(t)] as const),
          ]
          checkEquivalence(server, calls, Math.min(cut, calls.length), (s) =>
            s ? { player: s.player, dealer: s.dealer, rng: s.rng.getState() } : null,
          )
        },
      ),
      { numRuns: 150, seed: 1 },
    )
  })

  it('counter, random increments', () => {
    const server = createCounterServer()
    const op = fc.oneof(
      fc.integer({ min: -50, max: 50 }).map((n) => ['/seed_session', { initial_count: n }] as Call),
      fc.integer({ min: -50, max: 50 }).map((n) => ['/increment_counter', { count: n }] as Call),
      fc.constant(['/get_counter_value', {}] as Call),
    )
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 10 }), fc.nat(10), (calls, cut) => {
        checkEquivalence(server, calls, Math.min(cut, calls.length), (s) => s ?? null)
      }),
      { numRuns: 150, seed: 2 },
    )
  })

  const base = parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)
  const emailId = fc.constantFrom('00000010', '00000057', '00000499', '500', '501', 'x')
  const eventId = fc.constantFrom('00000000', '00000252', '00000300', '00000301')
  const taskId = fc.constantFrom('00000149', '00000037', '00000300', '00000301')
  const customerId = fc.constantFrom('00000189', '00000107', '00000200', '00000201')
  const addr = fc.constantFrom('raj.patel@atlas.com', 'Leila.Azizi@atlas.com', 'x@y.com', 'bad')
  const workplaceCall: fc.Arbitrary<Call> = fc.oneof(
    emailId.map((email_id) => ['/email_delete_email', { email_id }] as Call),
    fc
      .tuple(addr, fc.constantFrom('Hi', 'Re: x'))
      .map(
        ([recipient, subject]) => ['/email_send_email', { recipient, subject, body: 'b' }] as Call,
      ),
    fc
      .tuple(emailId, addr)
      .map(([email_id, recipient]) => ['/email_forward_email', { email_id, recipient }] as Call),
    emailId.map((email_id) => ['/email_reply_email', { email_id, body: 'ok' }] as Call),
    fc
      .constantFrom('prototype', '', 'hi')
      .map((query) => ['/email_search_emails', { query, page: 1, page_size: 3 }] as Call),
    fc
      .tuple(addr, fc.constantFrom('60', 90, 'x'))
      .map(
        ([participant_email, duration]) =>
          [
            '/calendar_create_event',
            { event_name: 'E', participant_email, event_start: '2023-12-01 10:00:00', duration },
          ] as Call,
      ),
    eventId.map(
      (event_id) =>
        ['/calendar_update_event', { event_id, field: 'event_name', new_value: 'N' }] as Call,
    ),
    eventId.map((event_id) => ['/calendar_delete_event', { event_id }] as Call),
    fc.constantFrom('bar', 'pie').map(
      (plot_type) =>
        [
          '/analytics_create_plot',
          {
            time_min: '2023-11-01',
            time_max: '2023-11-30',
            value_to_plot: 'total_visits',
            plot_type,
          },
        ] as Call,
    ),
    fc.constant(['/analytics_get_average_session_duration', {}] as Call),
    fc.constant(['/analytics_get_visitor_information_by_id', { visitor_id: '0860' }] as Call),
    addr.map(
      (assigned_to_email) =>
        [
          '/project_management_create_task',
          {
            task_name: 'T',
            assigned_to_email,
            list_name: 'Backlog',
            due_date: '2023-12-01',
            board: 'Design',
          },
        ] as Call,
    ),
    taskId.map((task_id) => ['/project_management_delete_task', { task_id }] as Call),
    taskId.map(
      (task_id) =>
        [
          '/project_management_update_task',
          { task_id, field: 'list_name', new_value: 'Completed' },
        ] as Call,
    ),
    addr.map(
      (assigned_to_email) =>
        [
          '/customer_relationship_manager_add_customer',
          { customer_name: 'C', assigned_to_email, status: 'Lead', notes: null },
        ] as Call,
    ),
    customerId.map(
      (customer_id) => ['/customer_relationship_manager_delete_customer', { customer_id }] as Call,
    ),
    customerId.map(
      (customer_id) =>
        [
          '/customer_relationship_manager_update_customer',
          { customer_id, field: 'status', new_value: 'Won' },
        ] as Call,
    ),
    fc
      .constantFrom('raj', 'nanolabs')
      .map(
        (customer_email) =>
          ['/customer_relationship_manager_search_customers', { customer_email }] as Call,
      ),
  )
  const view = (s: WorkplaceSession | undefined) =>
    s
      ? { float: s.sessionDurationFloat, tables: SESSION_TABLES.map((n) => toSplit(s.tables[n])) }
      : null

  it.each(['delta', 'full'] as const)('workplace, random tool calls (%s form)', (form) => {
    const server = createWorkplaceServer(base, { form })
    fc.assert(
      fc.property(fc.array(workplaceCall, { maxLength: 10 }), fc.nat(11), (calls, cut) => {
        const all: Call[] = [['/seed_session', {}], ...calls]
        checkEquivalence(server, all, Math.max(1, Math.min(cut, all.length)), view)
      }),
      { numRuns: 40, seed: form === 'delta' ? 3 : 4 },
    )
  })
})
