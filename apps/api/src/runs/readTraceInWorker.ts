import { Worker } from 'node:worker_threads'
import type { TraceEvent } from '@cutover/core/contracts'

/** What a trace reader worker is started with. */
export interface TraceReaderData {
  readonly dataDir: string
  readonly runId: string
  /** Events per message: each is deserialised on the server's thread in one go. */
  readonly batch: number
}

/** Trace reader worker → main thread. */
export type FromTraceReader =
  | { readonly type: 'events'; readonly events: readonly TraceEvent[] }
  | { readonly type: 'done'; readonly found: boolean }
  | { readonly type: 'failed'; readonly message: string }

/**
 * Reads a finished run's trace.json off the server's thread: its events, or undefined when it has
 * none.
 */
export type ReadTrace = (runId: string) => Promise<TraceEvent[] | undefined>

const BOOTSTRAP = new URL('./traceReaderBootstrap.js', import.meta.url)

/** Events per message from the reader (≈ 2 MB of events: a few milliseconds to take in). */
const BATCH = 5_000

/**
 * Reads trace.json of runs in the run store at `dataDir` in a short-lived worker thread per read:
 * the parse happens there, and the events arrive in batches (one structured-clone message each,
 * taken between other work on the event loop) instead of one `JSON.parse` of ≈ 100 MB here.
 */
export function traceReader(dataDir: string, bootstrap: URL = BOOTSTRAP): ReadTrace {
  return (runId) =>
    new Promise((resolve, reject) => {
      const events: TraceEvent[] = []
      let settled = false
      const worker = new Worker(bootstrap, {
        workerData: { dataDir, runId, batch: BATCH } satisfies TraceReaderData,
      })
      const settle = (finish: () => void): void => {
        if (settled) return
        settled = true
        finish()
        void worker.terminate()
      }
      worker.on('message', (message: FromTraceReader) => {
        if (message.type === 'events') for (const event of message.events) events.push(event)
        else if (message.type === 'done') settle(() => resolve(message.found ? events : undefined))
        else settle(() => reject(new Error(message.message)))
      })
      worker.on('error', (error) =>
        settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      )
      worker.on('exit', (code) =>
        settle(() => reject(new Error(`the trace reader exited (code ${code})`))),
      )
    })
}
