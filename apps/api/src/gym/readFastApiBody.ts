import type { PyJson } from '@cutover/core'
import { parsePyJson } from '@cutover/core'

/**
 * FastAPI's answer when the body cannot be read: the 422 or 400 it sends before any handler runs.
 */
export interface BodyRefusal {
  readonly status: 400 | 422
  readonly body: PyJson
}

/**
 * True when FastAPI parses a body of this content type as JSON (`application/json`,
 * `application/*+json`, or none).
 */
function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true
  const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  const [main, sub = ''] = mime.split('/')
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'))
}

/**
 * The body FastAPI hands to validation: undefined for an empty body (and for JSON `null`), the
 * parsed JSON when the content type is JSON or absent, and otherwise the raw text (which a model
 * then refuses). Malformed JSON is its `json_invalid` 422 with Python's message and position;
 * bytes Python cannot decode are its 400.
 */
export function readFastApiBody(
  bytes: Uint8Array,
  contentType: string | undefined,
): { ok: true; value: PyJson | undefined } | { ok: false; refusal: BodyRefusal } {
  if (bytes.length === 0) return { ok: true, value: undefined }
  if (!isJsonContentType(contentType)) return { ok: true, value: new TextDecoder().decode(bytes) }
  const parsed = parsePyJson(bytes)
  if (parsed.ok) return { ok: true, value: parsed.value === null ? undefined : parsed.value }
  if (parsed.error.kind === 'unreadable')
    return {
      ok: false,
      refusal: { status: 400, body: { detail: 'There was an error parsing the body' } },
    }
  return {
    ok: false,
    refusal: {
      status: 422,
      body: {
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', parsed.error.pos],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: parsed.error.msg },
          },
        ],
      },
    },
  }
}
