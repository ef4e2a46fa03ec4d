// The entry of a trace reader worker thread (started by readTraceInWorker through
// traceReaderBootstrap.js): reads and parses one run's trace.json (≈ 100 MB of JSON at 10,000
// rollouts) and posts its events in batches, so the server's thread never runs that JSON.parse.
import { parentPort, workerData } from 'node:worker_threads'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { createFileRunStore } from '../store/FileRunStore.ts'
import type { FromTraceReader, TraceReaderData } from './readTraceInWorker.ts'

const port = parentPort
if (port === null) throw new Error('traceReaderWorker.ts runs only as a worker thread')
const data = workerData as TraceReaderData
const post = (message: FromTraceReader): void => port.postMessage(message)
try {
  const store = createFileRunStore(
    data.dataDir,
    (path, create) => new NodeCheckpointDirectory(path, { create }),
  )
  const events = store.readTrace(data.runId)
  if (events === undefined) post({ type: 'done', found: false })
  else {
    for (let at = 0; at < events.length; at += data.batch)
      post({ type: 'events', events: events.slice(at, at + data.batch) })
    post({ type: 'done', found: true })
  }
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
}
