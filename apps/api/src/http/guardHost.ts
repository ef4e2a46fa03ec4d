import { errorBody } from '@cutover/core/contracts'
import { ERROR_STATUS } from './errorStatus.ts'

/** The names a loopback server always answers to (with its port). */
export const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const

/** A host as it appears in a `Host` header: lower case, IPv6 literals in brackets. */
const hostName = (host: string): string => {
  const lower = host.trim().toLowerCase()
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower
}

/** Splits a `Host` header into name and port (80 when absent); undefined when it is not one. */
function parseHostHeader(header: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/.exec(
    header.trim().toLowerCase(),
  )
  if (match === null || match[1] === undefined) return undefined
  return { name: match[1], port: match[2] === undefined ? 80 : Number(match[2]) }
}

/** The names the server answers to: the loopback names and the address it is bound to. */
export const allowedHostNames = (boundHost: string): ReadonlySet<string> =>
  new Set([...LOOPBACK_NAMES, hostName(boundHost)])

/** True when `header` names one of `names` with the server's port. */
export function isAllowedHost(
  header: string | null,
  names: ReadonlySet<string>,
  port: number,
): boolean {
  const parsed = header === null ? undefined : parseHostHeader(header)
  return parsed !== undefined && parsed.port === port && names.has(parsed.name)
}

/**
 * Wraps a fetch handler so a request whose `Host` is not this server (DNS rebinding: a foreign
 * page whose name now resolves to 127.0.0.1) is answered 421 `host_not_allowed` with the error
 * envelope before any route runs (docs/security.md). `port` is read per request, so a server bound
 * to port 0 checks the port it got.
 */
export function guardHost<TArgs extends unknown[]>(
  fetch: (request: Request, ...rest: TArgs) => Response | Promise<Response>,
  boundHost: string,
  port: () => number,
): (request: Request, ...rest: TArgs) => Response | Promise<Response> {
  const names = allowedHostNames(boundHost)
  return (request, ...rest) => {
    const host = request.headers.get('host')
    if (isAllowedHost(host, names, port())) return fetch(request, ...rest)
    const body = errorBody(
      'host_not_allowed',
      `Host ${JSON.stringify(host ?? '')} is not this server; use http://127.0.0.1:${port()} (or localhost)`,
    )
    return Response.json(body, {
      status: ERROR_STATUS.host_not_allowed,
      headers: { 'x-content-type-options': 'nosniff' },
    })
  }
}

/** True for an address that only this machine can reach: 127.0.0.0/8, `::1`, `localhost`. */
export const isLoopbackHost = (host: string): boolean =>
  /^(127(\.[0-9]{1,3}){3}|::1|\[::1\]|localhost)$/i.test(host.trim())
