import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import { errorBody } from '@cutover/core/contracts'
import { closeOnSignals } from '../process/closeOnSignals.ts'
import { exitWithParent } from './exitWithParent.ts'
import type { CliIo } from '../process/io.ts'

/**
 * Serves a participant app on loopback (`--port`, 0 = a free port) and prints
 * `listening on http://127.0.0.1:<port>` as the first stdout line (docs/fleet.md). The process
 * stops on SIGINT/SIGTERM and with its parent (`exitWithParent`).
 */
export async function serveParticipant(
  app: Hono,
  port: number,
  io: CliIo,
  onError: (error: unknown) => void,
): Promise<{ readonly url: string; readonly port: number }> {
  app.onError((error, c) => {
    onError(error)
    return c.json(
      errorBody('internal_error', error instanceof Error ? error.message : String(error)),
      500,
    )
  })
  const hostname = '127.0.0.1'
  const { server, bound } = await new Promise<{ server: ReturnType<typeof serve>; bound: number }>(
    (resolve) => {
      const server = serve({ fetch: app.fetch, port, hostname }, (info) =>
        resolve({ server, bound: info.port }),
      )
    },
  )
  closeOnSignals(server)
  exitWithParent()
  const url = `http://${hostname}:${bound}`
  io.stdout(`listening on ${url}\n`)
  return { url, port: bound }
}
