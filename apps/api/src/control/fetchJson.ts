/** docs/protocol.md §3.5 transport limit: an answer larger than this is `response_too_large`. */
export const MAX_RESPONSE_BYTES = 1024 * 1024

/**
 * One HTTP exchange's outcome: the status, headers and parsed JSON body, or a transport failure.
 */
export type FetchOutcome =
  | {
      readonly ok: true
      readonly status: number
      readonly headers: Headers
      readonly body: unknown
    }
  | {
      readonly ok: false
      readonly code:
        'transport_error' | 'invalid_response' | 'response_too_large' | 'deadline_exceeded'
      readonly message: string
    }

/**
 * Sends one JSON request on loopback and reads a JSON answer of at most 1 MiB (streamed, so an
 * oversized answer is cut off, not buffered), with a wall-clock timeout.
 */
export async function fetchJson(
  url: string,
  init: {
    method: 'GET' | 'POST'
    body?: unknown
    headers?: Record<string, string>
    timeoutMs?: number
  },
): Promise<FetchOutcome> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), init.timeoutMs ?? 120_000)
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: controller.signal,
    })
    const reader = response.body?.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    if (reader !== undefined) {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > MAX_RESPONSE_BYTES) {
          await reader.cancel()
          return {
            ok: false,
            code: 'response_too_large',
            message: `answer exceeds ${MAX_RESPONSE_BYTES} bytes`,
          }
        }
        chunks.push(value)
      }
    }
    const text = Buffer.concat(chunks).toString('utf8')
    let body: unknown = null
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text) as unknown
      } catch {
        return {
          ok: false,
          code: 'invalid_response',
          message: `answer (HTTP ${response.status}) is not JSON`,
        }
      }
    }
    return { ok: true, status: response.status, headers: response.headers, body }
  } catch (error) {
    if (controller.signal.aborted)
      return {
        ok: false,
        code: 'deadline_exceeded',
        message: `no answer within ${init.timeoutMs ?? 120_000} ms`,
      }
    const cause =
      error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return {
      ok: false,
      code: 'transport_error',
      message: `${error instanceof Error ? error.message : String(error)}${cause}`,
    }
  } finally {
    clearTimeout(timer)
  }
}

/** The `{error:{code,message}}` envelope's code, when the body is one. */
export function errorCodeOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined
  const error = (body as { error?: unknown }).error
  if (error === null || typeof error !== 'object') return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}
