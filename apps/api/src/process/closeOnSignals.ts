import type { ServerType } from '@hono/node-server'
/** Closes the server on SIGINT/SIGTERM. */
export function closeOnSignals(server: ServerType): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => server.close(() => process.exit(0)))
  }
}
