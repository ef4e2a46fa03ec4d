import { describe, expect, it } from 'vitest'
import { createBlackjackServer, blackjackCodec } from './blackjackServer.ts'
import type { BlackjackSession } from './blackjackServer.ts'
import { handValue, parseAction } from './blackjackRules.ts'

const rcp = { input: [{ role: 'user', content: 'Deal me in.' }] }
const say = (text: string) => ({
  responses_create_params: rcp,
  response: { output: [{ type: 'message', content: [{ type: 'output_text', text }] }] },
})
const server = createBlackjackServer({ seedForUnseededReset: () => 0n })

describe('blackjack (docs/environments.md §2)', () => {
  it('[bj-rules] hand values follow _hand_value', () => {
    expect(handValue(['5', '7'])).toBe(12)
    expect(handValue(['K', 'Q'])).toBe(20)
    expect(handValue(['A', 'K', '5'])).toBe(16)
    expect(handValue(['A', '9'])).toBe(20)
    expect(handValue(['A', 'A'])).toBe(12)
  })

  it('[bj-action] the first <action> tag wins; anything else stands', () => {
    expect(parseAction('think... <action> HIT </action> then <action>stand</action>')).toBe('hit')
    expect(parseAction('<action>fold</action>')).toBe('stand')
    expect(parseAction('maybe hit?')).toBe('stand')
  })

  it('[bj-seed] Random(0): reset deals [8, A] vs [8, 2]; stand wins against 26', () => {
    const reset = server.handle('/reset', { responses_create_params: rcp, seed: '0' }, undefined)
    expect(reset.response).toEqual({
      status: 200,
      body: {
        observation:
          'Your hand: [8, A] = 19\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
        info: {},
      },
    })
    const s = reset.session as BlackjackSession
    expect(s.dealer).toEqual(['8', '2'])
    const stand = server.handle('/step', say('<action>stand</action>'), s)
    expect(stand.response.body).toEqual({
      observation: null,
      reward: 1,
      terminated: true,
      truncated: false,
      info: {
        result: 'win',
        player: '[8, A]',
        player_value: 19,
        dealer: '[8, 2, 6, 10]',
        dealer_value: 26,
      },
    })
    expect(stand.session).toBeUndefined()
    expect(stand.closed).toBe(true)
    const hit = server.handle('/step', say('<action>hit</action>'), s)
    expect(hit.session?.player).toEqual(['8', 'A', '6'])
    expect(hit.response.body).toMatchObject({
      observation:
        'Your hand: [8, A, 6] = 15\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
      reward: 0,
      terminated: false,
    })
    // copy-on-write: the earlier session is untouched
    expect(s.player).toEqual(['8', 'A'])
    expect(blackjackCodec.describe(s)).toBe('[8, A] = 19 vs 8')
  })

  it('[bj-seed] a reset without a seed takes the factory seed', () => {
    const a = server.handle('/reset', { responses_create_params: rcp }, undefined)
    const b = server.handle('/reset', { responses_create_params: rcp, seed: 0 }, undefined)
    expect(a.response).toEqual(b.response)
  })

  it('[bj-bust] a bust ends the hand with -1 and the bust info', () => {
    let s = server.handle('/reset', { responses_create_params: rcp, seed: 5 }, undefined).session
    for (let i = 0; i < 20 && s; i++) {
      const r = server.handle('/step', say('<action>hit</action>'), s)
      if (r.closed) {
        expect(r.response.body).toMatchObject({
          reward: -1,
          terminated: true,
          info: { result: 'bust' },
        })
        return
      }
      s = r.session
    }
    throw new Error('expected a bust within 20 hits')
  })

  it('[bj-422] invalid bodies get FastAPI 422 and keep the session', () => {
    const r = server.handle('/reset', { seed: 'x' }, undefined)
    expect(r.response.status).toBe(422)
    expect(
      (r.response.body as { detail: { loc: string[] }[] }).detail.map((d) => d.loc.join('.')),
    ).toEqual(['body.responses_create_params', 'body.seed'])
    expect(
      server.handle('/step', { responses_create_params: rcp }, undefined).response.status,
    ).toBe(422)
    expect(server.handle('/nope', {}, undefined).response).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    })
  })

  it('[bj-codec] export is {player, dealer, rng_state} and restore continues identically', () => {
    const s = server.handle(
      '/reset',
      { responses_create_params: rcp, seed: '1180591620717411303435' },
      undefined,
    ).session as BlackjackSession
    const exported = blackjackCodec.exportState(s)
    expect(exported.ok).toBe(true)
    if (!exported.ok) return
    const state = JSON.parse(JSON.stringify(exported.value))
    expect(Object.keys(state).sort()).toEqual(['dealer', 'player', 'rng_state'])
    expect(state.rng_state[0]).toBe(3)
    expect(state.rng_state[1]).toHaveLength(625)
    const restored = blackjackCodec.restoreState(state)
    expect(restored.ok).toBe(true)
    if (!restored.ok) return
    expect(server.handle('/step', say('<action>stand</action>'), restored.value).response).toEqual(
      server.handle('/step', say('<action>stand</action>'), s).response,
    )
    expect(blackjackCodec.restoreState({ ...state, player: ['1'] }).ok).toBe(false)
    expect(blackjackCodec.restoreState({ ...state, extra: 1 }).ok).toBe(false)
  })
})
