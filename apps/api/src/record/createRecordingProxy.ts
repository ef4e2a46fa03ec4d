import { Agent, createServer, request as httpRequest } from 'node:http'
import type { ClientRequest, IncomingMessage, Server, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { JsonValue } from '@cutover/core'
import { BodyCapture } from './BodyCapture.ts'
import type { Redactor } from './createRedactor.ts'
import { REDACTED, isSecretKey } from './createRedactor.ts'

/** What a proxy needs: whom it stands for, where it forwards, where exchanges go. */
export interface RecordingProxyOptions {
  /** The participant's name in the recording (`policy`, `agent`, `blackjack`, …). */
  readonly name: string
  /** The server it forwards to (`http://127.0.0.1:41001`; a path prefix is kept). */
  readonly upstream: URL
  /** Receives each finished exchange (one recording line). */
  readonly record: (line: ExchangeLine) => void
  readonly redactor: Redactor
  /** Bytes of each body kept in the recording (the rest is counted and hashed). */
  readonly maxBodyBytes: number
  /**
   * Called after a control call naming a `checkpoint_dir` was answered 2xx (the recorder opens that
   * directory with the inspector once it exists).
   */
  readonly onCheckpointDir?: (dir: string, checkpointId: string | undefined) => void
}

/** One recording line as the proxy writes it (docs/recording.md and `RecordedExchange`). */
export type ExchangeLine = { readonly [key: string]: JsonValue }

/** Headers a recording keeps: the identity headers of both Gym spellings and a few plain ones. */
const KEPT_HEADER = /^(x-nemo-gym-|x-ng-)|^(content-type|retry-after|last-event-id)$/i

/** Wall-clock seconds (Unix time, sub-millisecond) and monotonic milliseconds. */
const wallSeconds = (): number => (performance.timeOrigin + performance.now()) / 1000
const monoMs = (): number => Math.round(performance.now() * 1000) / 1000

function keptHeaders(raw: readonly string[], redactor: Redactor): { [name: string]: string } {
  const out: { [name: string]: string } = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    if (!KEPT_HEADER.test(name) || isSecretKey(name)) continue
    const value = redactor.text(raw[i + 1] as string)
    out[name] = name in out ? `${out[name] as string}, ${value}` : value
  }
  return out
}

function queryOf(search: URLSearchParams, redactor: Redactor): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {}
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key).map((v) => (isSecretKey(key) ? REDACTED : redactor.text(v)))
    out[redactor.text(key)] = values.length === 1 ? (values[0] as string) : values
  }
  return out
}

/** The error envelope the proxy answers when its upstream does not (docs/http-api.md). */
function unreachable(name: string, upstream: URL, error: NodeJS.ErrnoException): string {
  const connecting = ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']
  const what = connecting.includes(error.code ?? '')
    ? 'could not reach'
    : 'lost its connection, before an answer, to'
  const message = `the recording proxy for ${name} ${what} ${upstream.origin}: ${error.code ?? 'error'} ${error.message}`
  return JSON.stringify({ error: { code: 'transport_error', message, detail: message } })
}

/**
 * A recording reverse proxy for one participant (docs/recording.md), on Node's `http` module so the
 * bytes are never re-encoded: the request is forwarded as it came (method, path and query, every
 * header in its order and case, `Host` set to the upstream's, the body chunk by chunk as it
 * arrives) and the answer comes back the same way (status and message, every header, the body
 * chunk by chunk: chunked and streaming answers stream, a long poll simply waits — the proxy has
 * no timeout of its own). It never reads a message to forward it. A copy of each body (bounded)
 * and the identity headers are kept, and once the answer has ended (or failed) the exchange is
 * handed to `record` with its wall-clock and monotonic times. The `Authorization` header is never
 * kept (only its scheme: `"auth": "Bearer ***"`), and its credential is learnt by the redactor so
 * no copy of it anywhere is written. An upstream that does not answer gets the client a 502 in the
 * error envelope (`transport_error`), recorded like any answer.
 */
export function createRecordingProxy(options: RecordingProxyOptions): Server {
  const { name, upstream, redactor, maxBodyBytes } = options
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const base = upstream.pathname.replace(/\/+$/, '')
  let seq = 0

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const t = wallSeconds()
    const tMono = monoMs()
    const target = req.url ?? '/'
    const url = new URL(target, 'http://proxy.invalid')
    const raw = req.rawHeaders
    const headers: string[] = []
    let auth: string | null = null
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i] as string
      const value = raw[i + 1] as string
      const lower = key.toLowerCase()
      if (lower === 'host') {
        headers.push(key, upstream.host)
        continue
      }
      if (lower === 'authorization') {
        const [scheme, ...credential] = value.split(' ')
        auth = `${scheme ?? ''} ${REDACTED}`
        redactor.learn(credential.join(' '))
        redactor.learn(value)
      }
      headers.push(key, value)
    }
    const requestBody = new BodyCapture(maxBodyBytes)
    const responseBody = new BodyCapture(maxBodyBytes)
    let status: number | null = null
    let responseHeaders: readonly string[] = []
    let failure: string | undefined
    let done = false
    /**
     * When the upstream's answer ended (wall s, monotonic ms): the exchange's end. Taken before the
     * answer's last bytes are forwarded, since the client may act on them (a controller writing its
     * manifest) before the forward's callback runs.
     */
    let answered: { readonly wall: number; readonly mono: number } | null = null

    const finish = (): void => {
      if (done) return
      done = true
      const request = requestBody.finish(redactor)
      const response = responseBody.finish(redactor)
      const line: { [key: string]: JsonValue } = {
        seq: seq++,
        participant: name,
        method: req.method ?? 'GET',
        path: redactor.text(url.pathname),
        query: queryOf(url.searchParams, redactor),
        request: request.value,
        status,
        response: response.value,
        t,
        t_end: answered?.wall ?? wallSeconds(),
        ms: Math.round(((answered?.mono ?? monoMs()) - tMono) * 1000) / 1000,
        t_mono: tMono,
        t_end_mono: answered?.mono ?? monoMs(),
        auth,
        headers: {
          request: keptHeaders(raw, redactor),
          response: keptHeaders(responseHeaders, redactor),
        },
        request_body: request.info as unknown as JsonValue,
        response_body: response.info as unknown as JsonValue,
      }
      if (failure !== undefined) line['transport_error'] = redactor.text(failure)
      options.record(line)
      if (
        options.onCheckpointDir !== undefined &&
        status !== null &&
        status >= 200 &&
        status < 300 &&
        url.pathname.startsWith('/ng-control/')
      ) {
        const body = request.value
        if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
          const dir = body['checkpoint_dir']
          const id = body['checkpoint_id']
          if (typeof dir === 'string' && dir !== '')
            options.onCheckpointDir(dir, typeof id === 'string' ? id : undefined)
        }
      }
    }

    let requestEnded = false
    let upstreamRequest: ClientRequest
    /**
     * Sends the request upstream. Over a kept-alive connection the upstream may have closed (a
     * participant process replaced on the same port): when that connection fails before any
     * answer and the whole request body is in hand, it is sent once more on a new connection.
     */
    const forward = (pooled: boolean): void => {
      const outgoing = httpRequest({
        agent: pooled ? agent : false,
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port === '' ? 80 : Number(upstream.port),
        method: req.method,
        path: `${base}${target}`,
        headers,
        setHost: false,
      })
      upstreamRequest = outgoing
      outgoing.on('socket', (socket) => socket.setNoDelay(true))
      outgoing.on('response', (answer) => {
        status = answer.statusCode ?? null
        responseHeaders = answer.rawHeaders
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [...answer.rawHeaders])
        if (answer.headers['content-length'] === undefined) res.flushHeaders()
        answer.on('data', (chunk: Buffer) => {
          if (!res.write(chunk)) {
            answer.pause()
            res.once('drain', () => answer.resume())
          }
          responseBody.push(chunk)
        })
        answer.on('end', () => {
          answered = { wall: wallSeconds(), mono: monoMs() }
          if (answer.rawTrailers.length > 0) {
            const trailers: [string, string][] = []
            for (let i = 0; i + 1 < answer.rawTrailers.length; i += 2)
              trailers.push([answer.rawTrailers[i] as string, answer.rawTrailers[i + 1] as string])
            res.addTrailers(trailers)
          }
          res.end(finish)
        })
        answer.on('error', (error) => {
          failure = `the upstream's answer broke off: ${error.message}`
          res.destroy()
          finish()
        })
        answer.on('aborted', () => {
          failure = 'the upstream closed the connection before its answer ended'
          res.destroy()
          finish()
        })
      })
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (done) return
        const whole = requestBody.whole()
        if (
          pooled &&
          outgoing.reusedSocket &&
          !res.headersSent &&
          requestEnded &&
          whole !== undefined &&
          (error.code === 'ECONNRESET' || error.code === 'EPIPE')
        ) {
          forward(false)
          upstreamRequest.end(whole)
          return
        }
        failure = `${error.code ?? 'error'}: ${error.message}`
        if (res.headersSent) {
          res.destroy()
          finish()
          return
        }
        // The client already went away (its own close handler cancelled this call).
        if (res.destroyed || res.writableEnded) {
          finish()
          return
        }
        const body = unreachable(name, upstream, error)
        status = 502
        responseBody.push(Buffer.from(body))
        res.writeHead(502, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        })
        res.end(body, finish)
      })
    }
    forward(true)

    req.on('data', (chunk: Buffer) => {
      if (!upstreamRequest.write(chunk)) {
        req.pause()
        upstreamRequest.once('drain', () => req.resume())
      }
      requestBody.push(chunk)
    })
    req.on('end', () => {
      requestEnded = true
      upstreamRequest.end()
    })
    // The client went away before the answer ended: the upstream call is cancelled with it.
    res.on('close', () => {
      if (res.writableFinished || done) return
      failure ??= 'the client closed the connection before the answer ended'
      upstreamRequest.destroy()
      finish()
    })
  }

  const server = createServer({ noDelay: true, requestTimeout: 0, keepAliveTimeout: 5_000 }, handle)
  // A long poll or a stream may last as long as the participant wants it to.
  server.headersTimeout = 60_000
  server.timeout = 0
  server.on('close', () => agent.destroy())
  return server
}
