import type { JsonValue } from '../json.ts'
import type { TraceMessage } from '../contracts/trace.ts'
import { GENERATION_CUT_EVENT_TYPES } from '../contracts/trace.ts'
import { diagramParticipant } from './diagramParticipant.ts'
import { sanitizeLabel } from './sanitizeLabel.ts'

const PATH_KEYS = ['path', 'file', 'checkpoint_dir'] as const

/**
 * The text of one event's message line, already safe for mermaid: the event type, the code of an
 * error outcome after `✗`, then a short hint — the session (`r004.a1`, or the rollout a
 * `rollout_<id>` participant stands for) and the path the message touches. Payload strings are
 * cut short so one message never dominates the diagram.
 */
export function messageLabel(event: TraceMessage): string {
  const parts = [sanitizeLabel(event.type, 48) || 'message']
  if (event.outcome !== 'ok') parts.push(`✗ ${sanitizeLabel(event.outcome, 40)}`)
  const session = sessionHint(event)
  if (session) parts.push(session)
  const tokens = tokenHint(event)
  if (tokens) parts.push(tokens)
  const call = callHint(event)
  if (call) parts.push(call)
  const exchange = exchangeHint(event)
  const path =
    exchange === undefined || NAMED_BY_PATH.has(event.type) ? pathHint(event.payload) : ''
  if (path) parts.push(path)
  if (exchange) parts.push(exchange)
  const verified = verifyHint(event)
  if (verified) parts.push(verified)
  return parts.join(' ')
}

/** Recorded events whose type does not name their route: the path says which call it was. */
const NAMED_BY_PATH: ReadonlySet<string> = new Set([
  'participant.call',
  'env.request',
  'env.start',
  'env.verify',
])

/**
 * A recorded exchange's answer on its line (docs/recording.md): `→ 400`, `→ no answer`, and the
 * wait of a long poll (`waited 888 ms`). Undefined for a simulated event.
 */
function exchangeHint(event: TraceMessage): string | undefined {
  if (!('http_status' in event.payload)) return undefined
  const status = event.payload['http_status']
  const parts = [typeof status === 'number' ? `→ ${status}` : '→ no answer']
  const ms = event.payload['ms']
  if (event.payload['long_poll'] === true && typeof ms === 'number')
    parts.push(`waited ${Math.round(ms)} ms`)
  return parts.join(' ')
}

/**
 * How far a `directory.verify` batch has got through its folder: `256/1000` (and `✗ n` for its
 * problems).
 */
function verifyHint(event: TraceMessage): string {
  if (event.type !== 'directory.verify') return ''
  const { checked, total, problems } = event.payload
  if (typeof checked !== 'number' || typeof total !== 'number') return ''
  return `${checked}/${total}${typeof problems === 'number' && problems > 0 ? ` ✗ ${problems}` : ''}`
}

/**
 * The call a generation-safe cut message is about, named by the id it had when it was cut: the
 * claim and the continuation of N+1 name the cut call too (`cut_model_call_id`), so one call reads
 * the same on both sides of the checkpoint.
 */
function callHint(event: TraceMessage): string {
  if (!CUT_EVENTS.has(event.type)) return ''
  const call = text(event.payload['cut_model_call_id']) ?? text(event.payload['model_call_id'])
  return call === undefined ? '' : `call ${sanitizeLabel(call, 24)}`
}

const CUT_EVENTS: ReadonlySet<string> = new Set(GENERATION_CUT_EVENT_TYPES)

/**
 * The note drawn on the worker's lifeline under a cut or a continuation, so the token boundary
 * shows inside the generation: `✂ token k · [0, k) staged · k… goes on` on the cut, `↪ same call
 * from token k` on the continuation. Empty for every other message (and a cut without a count).
 */
export function cutNoteText(event: TraceMessage): string {
  const k = event.payload['prefix_token_count']
  if (typeof k !== 'number' || !Number.isSafeInteger(k)) return ''
  if (event.type === 'generation.cut') return `✂ token ${k} · [0, ${k}) staged · ${k}… goes on`
  if (event.type === 'generation.continue') return `↪ same call from token ${k}`
  return ''
}

/**
 * Generation-safe cuts show their token counts on the line (never one message per token): the cut
 * at token k, the staged prefix, the acknowledged disposition, and the continuation from k.
 */
function tokenHint(event: TraceMessage): string {
  const p = event.payload
  const k = p['prefix_token_count']
  if (event.type === 'generation.cut_ack' && typeof k !== 'number')
    return sanitizeLabel(text(p['disposition']) ?? '', 24)
  if (typeof k !== 'number') return ''
  switch (event.type) {
    case 'generation.cut':
      return `cut at token ${k}`
    case 'token.stage_prefix':
      return `prefix [0, ${k})`
    case 'generation.cut_ack':
      return `${sanitizeLabel(text(p['disposition']) ?? '', 24)} k=${k}`
    case 'generation.continue': {
      const more = p['continuation_token_count']
      const delivery = sanitizeLabel(text(p['prefix_delivery']) ?? '', 12)
      return `from token ${k} (${delivery})${typeof more === 'number' ? ` +${more}` : ''}`
    }
    default:
      return ''
  }
}

function sessionHint(event: TraceMessage): string {
  const rollout = text(event.payload['rollout_id']) ?? rolloutOf(event.from) ?? rolloutOf(event.to)
  if (rollout === undefined) return ''
  const attempt = event.payload['attempt_index'] ?? event.payload['attempt']
  const suffix = typeof attempt === 'number' && Number.isSafeInteger(attempt) ? `.a${attempt}` : ''
  return `${sanitizeLabel(rollout, 24)}${suffix}`
}

function pathHint(payload: TraceMessage['payload']): string {
  for (const key of PATH_KEYS) {
    const value = text(payload[key])
    if (value !== undefined && value !== '') return sanitizeLabel(value, 48, 'end')
  }
  return ''
}

function rolloutOf(participant: string): string | undefined {
  return diagramParticipant(participant).rollout ?? undefined
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}
