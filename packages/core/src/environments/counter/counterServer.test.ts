import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../json.ts'
import { encodePyJson } from '../pyjson/encodePyJson.ts'
import { parsePyJson } from '../pyjson/parsePyJson.ts'
import { PyInt, withPlainFloats } from '../pyjson/pyValues.ts'
import { counterCodec, createCounterServer } from './counterServer.ts'

const server = createCounterServer()
const verifyBody = (expected_count: unknown) => ({
  responses_create_params: { input: [] },
  response: { output: [] },
  expected_count,
})

describe('session-state counter (docs/environments.md §3)', () => {
  it('[counter-seed] seed_session sets the count once and never overwrites', () => {
    const a = server.handle('/seed_session', { initial_count: 3, other: 'x' }, undefined)
    expect(a.response).toEqual({ status: 200, body: {} })
    expect(a.session).toEqual({ counter: 3 })
    expect(server.handle('/seed_session', { initial_count: 9 }, a.session).session).toEqual({
      counter: 3,
    })
  })

  it('[counter-ops] increments add (negatives too), get creates at 0, verify compares and keeps state', () => {
    const got = server.handle('/get_counter_value', undefined, undefined)
    expect(got.response.body).toEqual({ count: 0 })
    let s = server.handle('/increment_counter', { count: 1 }, { counter: 3 }).session
    s = server.handle('/increment_counter', { count: '2' }, s).session
    expect(server.handle('/get_counter_value', {}, s).response.body).toEqual({ count: 6 })
    expect(server.handle('/increment_counter', { count: -10 }, s).session).toEqual({ counter: -4 })
    const v = server.handle('/verify', verifyBody(6), s)
    expect(v.response.body).toEqual({
      responses_create_params: { input: [] },
      response: { output: [] },
      reward: 1,
    })
    expect(v.session).toEqual({ counter: 6 })
    expect(server.handle('/verify', verifyBody(5), s).response.body).toMatchObject({ reward: 0 })
    expect(server.handle('/verify', verifyBody(0), undefined).response.body).toMatchObject({
      reward: 0,
    })
  })

  it('[counter-422] bad bodies get FastAPI 422', () => {
    expect(server.handle('/increment_counter', { count: 1.5 }, undefined).response.status).toBe(422)
    expect(server.handle('/increment_counter', {}, undefined).response.body).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'count'], msg: 'Field required', input: {} }],
    })
    expect(server.handle('/seed_session', [], undefined).response.status).toBe(422)
  })

  it('[counter-codec] exports {counter} and rejects anything else', () => {
    expect(counterCodec.exportState({ counter: 42 })).toEqual({ ok: true, value: { counter: 42 } })
    expect(counterCodec.restoreState({ counter: 42 })).toEqual({ ok: true, value: { counter: 42 } })
    expect(counterCodec.restoreState({ counter: 1.5 }).ok).toBe(false)
    expect(counterCodec.restoreState({ counter: 1, x: 2 }).ok).toBe(false)
    expect(server.routeKind('/seed_session', 'POST')).toBe('start')
    expect(server.routeKind('/verify', 'POST')).toBe('terminal')
    expect(server.routeKind('/increment_counter', 'POST')).toBe('mutation')
    expect(server.routeKind('/get_counter_value', 'GET')).toBe('untracked')
  })

  it('[counter-bigint] an int beyond 2^64 stays exact: parse, state, snapshot, restore, answer', () => {
    const big = 2n ** 70n + 3n
    const parsed = parsePyJson(`{"count": ${big}}`)
    if (!parsed.ok) throw new Error('fixture is JSON')
    const incremented = server.handle('/increment_counter', withPlainFloats(parsed.value), {
      counter: 5,
    })
    expect(incremented.session).toEqual({ counter: new PyInt(big + 5n) })
    const snapshot = counterCodec.exportState(incremented.session ?? { counter: 0 })
    expect(snapshot).toEqual({ ok: true, value: { counter: (big + 5n).toString() } })
    // The snapshot crosses a file as canonical JSON.
    const restored = counterCodec.restoreState(
      JSON.parse(canonicalJson(snapshot.ok ? snapshot.value : null)),
    )
    if (!restored.ok) throw new Error(restored.error.message)
    const grown = server.handle('/increment_counter', { count: 1 }, restored.value).session
    const answer = server.handle('/get_counter_value', undefined, grown).response.body
    expect(encodePyJson(answer)).toEqual({ ok: true, value: `{"count":${big + 6n}}` })
    expect(
      server.handle('/verify', verifyBody((big + 6n).toString()), grown).response.body,
    ).toMatchObject({ reward: 1 })
  })

  it('[counter-codec] one encoding per value: safe ints are numbers, only larger ones strings', () => {
    expect(counterCodec.exportState({ counter: 42 })).toEqual({ ok: true, value: { counter: 42 } })
    expect(counterCodec.restoreState({ counter: '42' }).ok).toBe(false)
    expect(counterCodec.restoreState({ counter: '1e30' }).ok).toBe(false)
    expect(counterCodec.restoreState({ counter: 2 ** 60 }).ok).toBe(false)
    expect(counterCodec.restoreState({ counter: '-1180591620717411303427' })).toEqual({
      ok: true,
      value: { counter: new PyInt(-1180591620717411303427n) },
    })
  })
})
