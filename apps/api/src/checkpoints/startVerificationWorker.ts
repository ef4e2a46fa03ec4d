import { Worker } from 'node:worker_threads'
import type { CheckpointVerification } from './checkpointVerification.ts'

/** Main thread → verification worker: verify the checkpoint folder at `folder`. */
export interface ToVerificationWorker {
  readonly id: number
  readonly folder: string
}

/** Verification worker → main thread. */
export type FromVerificationWorker = { readonly id: number; readonly value: CheckpointVerification } | { readonly id: number; readonly error: string }

/** Verifies checkpoint folders off the server's thread. */
export type VerifyCheckpointFolder = (folder: string) => Promise<CheckpointVerification>

const BOOTSTRAP = new URL('./verificationWorkerBootstrap.js', import.meta.url)

/**
 * One worker thread, started on the first request and kept (unref'd: it never keeps the process
 * alive), verifying folders in the order asked. A worker that dies rejects what it had pending; the
 * next request starts a fresh one.
 */
export function startVerificationWorker(bootstrap: URL = BOOTSTRAP): VerifyCheckpointFolder {
  let worker: Worker | undefined
  const pending = new Map<number, { resolve: (value: CheckpointVerification) => void; reject: (error: Error) => void }>()
  let nextId = 0
  const failAll = (error: Error): void => {
    worker = undefined
    for (const waiter of pending.values()) waiter.reject(error)
    pending.clear()
  }
  const started = (): Worker => {
    if (worker !== undefined) return worker
    const w = new Worker(bootstrap)
    w.unref()
    w.on('message', (message: FromVerificationWorker) => {
      const waiter = pending.get(message.id)
      pending.delete(message.id)
      if ('error' in message) waiter?.reject(new Error(message.error))
      else waiter?.resolve(message.value)
    })
    w.on('error', (error) => failAll(error instanceof Error ? error : new Error(String(error))))
    w.on('exit', (code) => failAll(new Error(`the verification worker exited (code ${code})`)))
    worker = w
    return w
  }
  return (folder) =>
    new Promise((resolve, reject) => {
      const id = (nextId += 1)
      pending.set(id, { resolve, reject })
      started().postMessage({ id, folder } satisfies ToVerificationWorker)
    })
}
