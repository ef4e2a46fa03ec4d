import type { SimulationResult } from '@cutover/core'
import type {
  CardChange,
  JsonValue,
  MessageView,
  PairRole,
  ParticipantView,
  TraceEvent,
} from '@cutover/core/contracts'
import { CARD_FIELDS } from '@cutover/core/contracts'

/** What `GET /api/runs/:id/steps/:n/message` asks for. */
export interface MessageQuery {
  /** 1..total: the message of step 0 does not exist. */
  readonly step: number
  readonly total: number
}

type Source = Pick<SimulationResult, 'events' | 'participantsAt' | 'sessionDetail'>

/** Requests and the answer type that closes them, paired by one payload field. */
const PAIRS: readonly { request: string; answer: string; by: readonly string[] }[] = [
  { request: 'model.request', answer: 'model.response', by: ['model_call_id'] },
  { request: 'generation.cut', answer: 'generation.cut_ack', by: ['cut_id'] },
  { request: 'run.dispatch', answer: 'run.complete', by: ['rollout_id', 'attempt_index'] },
  { request: 'generation.stage', answer: 'generation.coordinates', by: ['model_call_id'] },
  { request: 'model.egress_fenced', answer: 'model.egress_released', by: ['model_call_id'] },
]

const text = (value: JsonValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined

/** `model_call_id policy-call-000001`, or null when a field is missing. */
function pairKey(event: TraceEvent, fields: readonly string[]): string | null {
  const parts: string[] = []
  for (const field of fields) {
    const value = event.payload[field]
    if (typeof value !== 'string' && typeof value !== 'number') return null
    parts.push(`${field} ${value}`)
  }
  return parts.join(', ')
}

/**
 * The request/answer pair of `event`: the other message is searched forward (a request's answer)
 * or backward (an answer's request) for the same pairing fields; a control call or an environment
 * call carries its own answer.
 */
export function pairOf(events: readonly TraceEvent[], event: TraceEvent): MessageView['pair'] {
  for (const pair of PAIRS) {
    const isRequest = event.type === pair.request
    if (!isRequest && event.type !== pair.answer) continue
    const by = pairKey(event, pair.by)
    if (by === null) break
    const wanted = isRequest ? pair.answer : pair.request
    const index = event.step - 1
    if (isRequest) {
      for (let k = index + 1; k < events.length; k++) {
        const other = events[k] as TraceEvent
        if (other.type === wanted && pairKey(other, pair.by) === by)
          return { role: 'request', other, by }
      }
    } else {
      for (let k = index - 1; k >= 0; k--) {
        const other = events[k] as TraceEvent
        if (other.type === wanted && pairKey(other, pair.by) === by)
          return { role: 'answer', other, by }
      }
    }
    return { role: isRequest ? 'request' : 'answer', other: null, by }
  }
  const p = event.payload
  const carriesAnswer =
    event.from !== event.to &&
    ('result' in p || 'message' in p || 'status' in p || 'revision' in p || event.outcome !== 'ok')
  const role: PairRole = carriesAnswer ? 'both' : 'none'
  return { role, other: null, by: null }
}

const cardValue = (card: ParticipantView | undefined, field: (typeof CARD_FIELDS)[number]) =>
  card === undefined
    ? null
    : field === 'tombstones'
      ? card.tombstones.length
      : (card[field] as JsonValue)

/** The fields of each participant card that differ between two steps (cards in the same order). */
export function cardChanges(
  before: readonly ParticipantView[],
  after: readonly ParticipantView[],
): CardChange[] {
  const was = new Map(before.map((card) => [card.id, card]))
  const changes: CardChange[] = []
  for (const card of after) {
    const old = was.get(card.id)
    for (const field of CARD_FIELDS) {
      const a = cardValue(old, field)
      const b = cardValue(card, field)
      if (a === b) continue
      if (field === 'tombstones') {
        const known = new Set(old?.tombstones ?? [])
        changes.push({
          participant: card.id,
          field,
          before: a,
          after: b,
          added: card.tombstones.filter((t) => !known.has(t)).slice(0, 20),
        })
      } else changes.push({ participant: card.id, field, before: a, after: b })
    }
  }
  return changes
}

/**
 * The payload panel of one message (docs/inspector.md, "every message opens"): the event, its pair,
 * the participant fields it changed and its session before and after. Built where the simulation
 * lives; two card lists and at most two session rows, whatever the run's size.
 */
export function messageView(result: Source, query: MessageQuery): MessageView | undefined {
  const { step, total } = query
  const event = step >= 1 && step <= total ? result.events[step - 1] : undefined
  if (event === undefined) return undefined
  const events = total === result.events.length ? result.events : result.events.slice(0, total)
  const rollout = text(event.payload['rollout_id'])
  const attempt = event.payload['attempt_index']
  const key =
    rollout !== undefined && typeof attempt === 'number' ? `${rollout}.a${attempt}` : undefined
  return {
    step,
    total,
    event,
    pair: pairOf(events, event),
    changes: cardChanges(result.participantsAt(step - 1), result.participantsAt(step)),
    session:
      key === undefined
        ? null
        : {
            key,
            before: result.sessionDetail(key, step - 1)?.session ?? null,
            after: result.sessionDetail(key, step)?.session ?? null,
          },
  }
}
