import { createConnection } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { errorBody } from '@cutover/core/contracts'
import type { CoordinatorMessage, WorkerMessage } from '../model/ModelWorkerPool.ts'
import { COORDINATOR_SOCKET_ENV } from '../model/ModelWorkerPool.ts'
import { policyInputSchema, scriptedPolicy } from '../model/scriptedPolicy.ts'
import { exitWithParent } from '../participants/exitWithParent.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'

export const MODEL_WORKER_HELP = `usage: cutover model-worker --index K

One worker process of a policy model started with --workers N (cutover model starts them itself).
It generates on its own loopback port and joins the admission coordinator over the Unix socket
named by ${COORDINATOR_SOCKET_ENV} (newline-delimited JSON: register, then an ack of every
closed-state sequence with its in-flight count). A registration the coordinator refuses
(worker_registration_rejected: admission is not accepting, or the slot is taken) ends the process
with exit 1; so does the coordinator going away.`

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * `cutover model-worker`: one policy model worker OS process behind the coordinator
 * (docs/protocol.md §4.6).
 */
export async function runModelWorkerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout(`${MODEL_WORKER_HELP}\n`)
    return EXIT.ok
  }
  let index: number
  const socketPath = process.env[COORDINATOR_SOCKET_ENV]
  try {
    const { values } = parseArgs(argv, { values: ['--index'] })
    const text = values.get('--index')
    if (text === undefined) throw new UsageError('--index K is required')
    index = parseIntegerOption('--index', text, 0, 15)
    if (socketPath === undefined || socketPath === '')
      throw new UsageError(`${COORDINATOR_SOCKET_ENV} must name the coordinator's socket`)
  } catch (error) {
    io.stderr(`cutover model-worker: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.usage
  }
  let inflight = 0
  const app = new Hono()
  app.post('/generate', async (c) => {
    const input = policyInputSchema.safeParse(await c.req.json().catch(() => null))
    if (!input.success)
      return c.json(errorBody('invalid_request', input.error.issues[0]?.message ?? 'invalid'), 400)
    inflight++
    try {
      if ((input.data.delay_ms ?? 0) > 0) await sleep(input.data.delay_ms ?? 0)
      return c.json({ decision: scriptedPolicy(input.data) })
    } finally {
      inflight--
    }
  })
  const url = await new Promise<string>((resolve) => {
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    )
  })
  exitWithParent()
  const socket = createConnection(socketPath)
  socket.setEncoding('utf8')
  const send = (m: WorkerMessage): void => void socket.write(`${JSON.stringify(m)}\n`)
  let buffer = ''
  socket.on('connect', () => send({ type: 'register', worker: index, pid: process.pid, url }))
  socket.on('data', (chunk: string) => {
    buffer += chunk
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const m = JSON.parse(buffer.slice(0, at)) as CoordinatorMessage
      buffer = buffer.slice(at + 1)
      if (m.type === 'rejected') {
        io.stderr(`cutover model-worker ${index}: registration refused: ${m.code}: ${m.message}\n`)
        process.exit(EXIT.failure)
      }
      if (m.type === 'state' && m.state === 'closed')
        send({ type: 'ack', worker: index, seq: m.seq, inflight })
    }
  })
  const gone = (): never => process.exit(EXIT.failure)
  socket.on('close', gone)
  socket.on('error', gone)
  io.stdout(`model worker ${index} generating on ${url}\n`)
  return EXIT.ok
}
