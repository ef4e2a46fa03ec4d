import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { EnvName } from '@cutover/core'
import { nodeDigest } from '@cutover/core/adapters'
import { createGymApp } from './createGymApp.ts'
import { createParticipantGymHost } from './createParticipantGymHost.ts'
import { createParticipants } from './defaultEnvironments.ts'

/**
 * Replays the requests recorded against the real NeMo Gym resources servers (fixtures/, see
 * NOTICE) through `cutover gym ENV`'s app, one cookie jar per group, and compares status, content
 * type and body bytes with the reference's answer.
 */
interface ReferencePair {
  readonly env: EnvName
  readonly group: string
  readonly label: string
  readonly method: string
  readonly path: string
  readonly request_headers: Record<string, string>
  readonly request_b64: string | null
  readonly ref_status: number
  readonly ref_ctype: string | null
  readonly ref_cookie: boolean
  readonly ref_body: string
}

const PAIRS = JSON.parse(
  readFileSync(new URL('./fixtures/gym_http_reference_pairs.json', import.meta.url), 'utf8'),
) as ReferencePair[]

/**
 * The differences docs/gym-compatibility.md accepts; each pair of such a kind is skipped with
 * its reason.
 */
export function acceptedDifference(pair: ReferencePair): string | undefined {
  if (pair.method === 'GET' && /\/(openapi\.json|docs)$/.test(pair.path))
    return "FastAPI's own /openapi.json and /docs"
  if (pair.ref_status === 307) return "FastAPI's trailing-slash redirect"
  if (pair.path === '/' && pair.method !== 'GET') return "FastAPI's 405 for a wrong method on /"
  if (/NaN literal/.test(pair.label))
    return 'NaN literals (Python reads them and often fails to encode its answer; Cutover reads them, but does not promise it)'
  if (/lone surrogate/.test(pair.label))
    return 'lone surrogates (Python keeps them and then fails to encode its own answer)'
  if (pair.group === 'reset-extra')
    return "strictness of Cutover's own seed extension for invalid values"
  return undefined
}

/**
 * email_search_emails results among equal timestamps come in numpy's unstable, CPU-dependent order.
 */
function normalizeEmailTies(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      output?: { emails?: { sent_datetime: string; email_id: string }[] }
    }
    const emails = parsed.output?.emails
    if (!Array.isArray(emails)) return body
    const groups = new Map<string, string[]>()
    for (const e of emails)
      groups.set(e.sent_datetime, [...(groups.get(e.sent_datetime) ?? []), JSON.stringify(e)])
    return JSON.stringify([...groups.entries()].map(([t, list]) => [t, [...list].sort()]))
  } catch {
    return body
  }
}

interface Outcome {
  readonly index: number
  readonly pair: ReferencePair
  readonly status: number
  readonly ctype: string | null
  readonly body: string
}

async function replay(): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  const groups = new Map<string, { index: number; pair: ReferencePair }[]>()
  PAIRS.forEach((pair, index) => {
    const key = `${pair.env}\u0000${pair.group}`
    groups.set(key, [...(groups.get(key) ?? []), { index, pair }])
  })
  for (const members of groups.values()) {
    const env = members[0]?.pair.env ?? 'counter'
    const participant = createParticipants(nodeDigest, {
      only: env,
      seedForUnseededReset: () => 0n,
    })[env]
    if (participant === undefined) throw new Error(`no participant for ${env}`)
    let n = 0
    const app = createGymApp({
      env,
      host: createParticipantGymHost(participant),
      mountPath: '',
      newSessionId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    })
    let cookie: string | undefined
    for (const { index, pair } of members) {
      const headers: Record<string, string> = { ...pair.request_headers }
      if (cookie !== undefined) headers['cookie'] = cookie
      const body =
        pair.request_b64 === null
          ? undefined
          : new Uint8Array(Buffer.from(pair.request_b64, 'base64'))
      const response = await app.request(pair.path, {
        method: pair.method,
        headers,
        ...(body === undefined ? {} : { body }),
      })
      const setCookie = response.headers.get('set-cookie')
      if (setCookie !== null) cookie = setCookie.split(';')[0]
      outcomes.push({
        index,
        pair,
        status: response.status,
        ctype: response.headers.get('content-type'),
        body: await response.text(),
      })
    }
  }
  return outcomes.sort((a, b) => a.index - b.index)
}

const sameAnswer = (o: Outcome): boolean =>
  o.status === o.pair.ref_status &&
  (o.pair.ref_ctype === null || o.ctype === o.pair.ref_ctype) &&
  o.body === o.pair.ref_body
const sameUpToTies = (o: Outcome): boolean =>
  o.status === o.pair.ref_status &&
  o.ctype === o.pair.ref_ctype &&
  o.pair.path.endsWith('/email_search_emails') &&
  normalizeEmailTies(o.body) === normalizeEmailTies(o.pair.ref_body)

describe('Gym routes against the real NeMo Gym servers (fixtures/gym_http_reference_pairs.json)', async () => {
  const outcomes = await replay()
  const identical = outcomes.filter(sameAnswer).length

  it(`[gym-replay] reports the byte-identical count (${identical} of ${outcomes.length})`, () => {
    expect(outcomes).toHaveLength(PAIRS.length)
  })

  for (const o of outcomes) {
    const reason = acceptedDifference(o.pair)
    const name = `[gym-replay] #${o.index} ${o.pair.env} ${o.pair.label}`
    if (reason !== undefined) {
      it.skip(`${name} (accepted difference: ${reason})`, () => undefined)
      continue
    }
    it(name, () => {
      if (sameAnswer(o) || sameUpToTies(o)) return
      expect({ status: o.status, ctype: o.ctype, body: o.body }).toEqual({
        status: o.pair.ref_status,
        ctype: o.pair.ref_ctype,
        body: o.pair.ref_body,
      })
    })
  }
})
