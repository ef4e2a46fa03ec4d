import type { ErrorBody, ErrorCode } from '@cutover/core/contracts'

/** An API failure: the HTTP status with the contract error code and message. */
export class ApiError extends Error {
  readonly status: number
  readonly code: ErrorCode | 'network_error'
  constructor(status: number, code: ErrorCode | 'network_error', message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
  }
}

async function request(
  path: string,
  init?: RequestInit,
): Promise<{ response: Response; text: string }> {
  let response: Response
  try {
    response = await fetch(path, {
      ...init,
      headers: { accept: 'application/json', ...init?.headers },
    })
  } catch (error) {
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : String(error))
  }
  const text = await response.text()
  if (!response.ok) {
    let envelope: Partial<ErrorBody> | null = null
    try {
      envelope = text ? (JSON.parse(text) as Partial<ErrorBody>) : null
    } catch {
      // not the envelope (a proxy's HTML page, say): fall back to the status line
    }
    throw new ApiError(
      response.status,
      envelope?.error?.code ?? 'internal_error',
      envelope?.error?.message ?? `${response.status} ${response.statusText}`,
    )
  }
  return { response, text }
}

/** GETs or POSTs JSON from the API; throws `ApiError` with the envelope's code on failure. */
export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {
  const { response, text } = await request(path, init)
  try {
    return (text ? JSON.parse(text) : null) as T
  } catch {
    throw new ApiError(response.status, 'internal_error', `${path} did not answer JSON`)
  }
}

/** GETs a file's text as it is (a checkpoint file: JSON, JSONL). */
export async function apiText(path: string): Promise<string> {
  return (await request(path)).text
}

// Every query and mutation fails with an `ApiError` (the fetchers above throw nothing else), so it
// is TanStack Query's default error type: `query.error` is typed without casts.
declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError
  }
}
