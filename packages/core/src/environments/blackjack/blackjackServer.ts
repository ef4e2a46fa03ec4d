import { cutoverError } from '../../contracts/errors.ts'
import type { JsonValue } from '../../json.ts'
import { err, ok } from '../../result.ts'
import { PyRandom } from '../../rng/PyRandom.ts'
import type { PyJson } from '../pyjson/pyValues.ts'
import { asJsonValue, intValue } from '../pyjson/pyValues.ts'
import { checkpointRouteKind } from '../checkpointRouteKind.ts'
import type { CheckpointCodec, EnvironmentServer, EnvHandleResult } from '../EnvironmentServer.ts'
import { extractText } from '../gymnasium/extractText.ts'
import type { ValidationIssue } from '../gymnasium/fastapiValidation.ts'
import {
  isRecord,
  NOT_FOUND,
  objectBody,
  requireObjectField,
  unprocessable,
} from '../gymnasium/fastapiValidation.ts'
import { RANKS, deal, formatHand, handValue, observation, parseAction } from './blackjackRules.ts'

/**
 * One hand in progress: both hands and the session's own RNG position
 * (docs/environments.md §2).
 */
export interface BlackjackSession {
  readonly player: readonly string[]
  readonly dealer: readonly string[]
  /** Never mutated once stored: handlers draw from a clone (copy-on-write). */
  readonly rng: PyRandom
}

/** Options for the pure server: core has no randomness, so the edge supplies seeds. */
export interface BlackjackServerOptions {
  /**
   * The seed for a `/reset` without a `seed` field, and for a `/step` with no session (the
   * reference's unseeded `random.Random()`). The simulator derives it from the run seed; HTTP
   * draws it from crypto. Record it to reproduce the hand.
   */
  readonly seedForUnseededReset: () => bigint
}

/**
 * The Blackjack codec: `{player, dealer, rng_state}` with rng_state in CPython `getstate()` shape.
 */
export const blackjackCodec: CheckpointCodec<BlackjackSession> = {
  enabled: true,
  stateSchemaVersion: 1,
  exportState: (s) =>
    ok({ player: [...s.player], dealer: [...s.dealer], rng_state: s.rng.getStateJson() }),
  restoreState: (state) => {
    const bad = (why: string) => err(cutoverError('invalid_request', `blackjack state: ${why}`))
    if (!isRecord(state)) return bad('expected {player, dealer, rng_state}')
    const keys = Object.keys(state).sort().join(',')
    if (keys !== 'dealer,player,rng_state') return bad(`unexpected keys ${keys}`)
    const hands: string[][] = []
    for (const name of ['player', 'dealer'] as const) {
      const hand = state[name]
      if (
        !Array.isArray(hand) ||
        !hand.every((c) => typeof c === 'string' && (RANKS as readonly string[]).includes(c))
      )
        return bad(`${name} must be a list of ranks`)
      hands.push(hand as string[])
    }
    const rng = PyRandom.fromState(state['rng_state'])
    if (!rng.ok) return rng
    return ok({ player: hands[0] ?? [], dealer: hands[1] ?? [], rng: rng.value })
  },
  describe: (s) => `${formatHand(s.player)} = ${handValue(s.player)} vs ${s.dealer[0] ?? '?'}`,
}

/** Parses an optional reset seed: a non-negative integer (exact at any size) or decimal string. */
function parseSeed(v: PyJson | undefined, issues: ValidationIssue[]): bigint | undefined {
  if (v === undefined || v === null) return undefined
  const exact = intValue(v)
  if (exact !== undefined && exact >= 0n) return exact
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v)
  issues.push({
    type: 'int_parsing',
    loc: ['body', 'seed'],
    msg: 'Input should be a non-negative integer or decimal string',
    input: asJsonValue(v),
  })
  return undefined
}

/**
 * `BlackjackEnv(GymnasiumServer)`: `/reset` deals player, player, dealer, dealer; `/step` parses
 * the action from the Responses-API `response`, hits or stands, and closes the session on a
 * terminal step. Cutover's one extension: `/reset` takes an optional `seed`.
 */
export function createBlackjackServer(
  options: BlackjackServerOptions,
): EnvironmentServer<BlackjackSession> {
  return {
    name: 'blackjack',
    routeKind: (path, method) => checkpointRouteKind(path, method, ['/reset']),
    codec: blackjackCodec,
    handle(path, rawBody, session): EnvHandleResult<BlackjackSession> {
      if (path !== '/reset' && path !== '/step') return { response: NOT_FOUND, session }
      const parsed = objectBody(rawBody)
      if (!parsed.ok) return { response: parsed.response, session }
      const body = parsed.value
      const issues: ValidationIssue[] = []
      requireObjectField(body, 'responses_create_params', issues)
      if (path === '/reset') {
        const seed = parseSeed(body['seed'] as PyJson | undefined, issues)
        if (issues.length > 0) return { response: unprocessable(issues), session }
        const rng = PyRandom.fromSeed(seed ?? options.seedForUnseededReset())
        const player = [deal(rng), deal(rng)]
        const dealer = [deal(rng), deal(rng)]
        return {
          response: { status: 200, body: { observation: observation(player, dealer), info: {} } },
          session: { player, dealer, rng },
        }
      }
      requireObjectField(body, 'response', issues)
      if (issues.length > 0) return { response: unprocessable(issues), session }
      const rng = session ? session.rng.clone() : PyRandom.fromSeed(options.seedForUnseededReset())
      const player = [...(session?.player ?? [])]
      const dealer = [...(session?.dealer ?? [])]
      const terminal = (reward: number, info: JsonValue): EnvHandleResult<BlackjackSession> => ({
        response: {
          status: 200,
          body: { observation: null, reward, terminated: true, truncated: false, info },
        },
        session: undefined,
        closed: true,
      })
      if (parseAction(extractText(body['response'])) === 'hit') {
        player.push(deal(rng))
        const value = handValue(player)
        if (value > 21) return terminal(-1.0, { result: 'bust', player: formatHand(player), value })
        // The reference reads dealer[0] for the observation: an empty dealer hand (step before
        // reset) is an IndexError → 500.
        if (dealer.length === 0)
          return {
            response: { status: 500, body: "IndexError('list index out of range')" },
            session,
          }
        const next = session ? { player, dealer, rng } : undefined
        return {
          response: {
            status: 200,
            body: {
              observation: observation(player, dealer),
              reward: 0.0,
              terminated: false,
              truncated: false,
              info: {},
            },
          },
          session: next,
        }
      }
      while (handValue(dealer) < 17) dealer.push(deal(rng))
      const pv = handValue(player)
      const dv = handValue(dealer)
      const [reward, result] =
        dv > 21 || pv > dv ? [1.0, 'win'] : pv === dv ? [0.0, 'draw'] : [-1.0, 'loss']
      return terminal(reward, {
        result,
        player: formatHand(player),
        player_value: pv,
        dealer: formatHand(dealer),
        dealer_value: dv,
      })
    },
  }
}
