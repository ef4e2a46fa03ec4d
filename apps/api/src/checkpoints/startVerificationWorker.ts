import { Worker } from 'node:worker_threads'
import type { DirectoryInspection } from '@cutover/core'
import type { CheckpointVerification } from './checkpointVerification.ts'

/** Main thread → verification worker: verify the checkpoint folder at `folder`, or inspect it as a directory run (`POST /api/directories`). */
export interface ToVerificationWorker {
  readonly id: number
  readonly folder: string
  readonly job: 'verify' | 'inspect'
}

/** Verification worker → main thread. */
export type FromVerificationWorker = { readonly id: number; readonly value: CheckpointVerification | DirectoryInspection } | { readonly id: number; readonly error: string }

/** Verifies checkpoint folders off the server's thread. */
export type VerifyCheckpointFolder = (folder: string) => Promise<CheckpointVerification>

/** Inspects a checkpoint directory (`inspectDirectory`: reads, hashes and decodes every file) off the server's thread. */
export type InspectDirectoryFolder = (folder: string) => Promise<DirectoryInspection>

/** The two jobs of the one worker thread. */
export interface CheckpointWorker {
  readonly verify: VerifyCheckpointFolder
  readonly inspect: InspectDirectoryFolder
}

const BOOTSTRAP = new URL('./verificationWorkerBootstrap.js', import.meta.url)

/** The verification job alone of a fresh checkpoint worker. */
export function startVerificationWorker(bootstrap: URL = BOOTSTRAP): VerifyCheckpointFolder {
  return startCheckpointWorker(bootstrap).verify
}

/**
 * One worker thread, started on the first request and kept (unref'd: it never keeps the process
 * alive), verifying or inspecting folders in the order asked. A worker that dies rejects what it had
 * pending; the next request starts a fresh one.
 */
export function startCheckpointWorker(bootstrap: URL = BOOTSTRAP): CheckpointWorker {
  let worker: Worker | undefined
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>()
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
      else waiter?.resolve(message.value as never)
    })
    w.on('error', (error) => failAll(error instanceof Error ? error : new Error(String(error))))
    w.on('exit', (code) => failAll(new Error(`the verification worker exited (code ${code})`)))
    worker = w
    return w
  }
  const ask =
    <T>(job: ToVerificationWorker['job']) =>
    (folder: string): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const id = (nextId += 1)
        pending.set(id, { resolve: resolve as (value: never) => void, reject })
        started().postMessage({ id, folder, job } satisfies ToVerificationWorker)
      })
  return { verify: ask<CheckpointVerification>('verify'), inspect: ask<DirectoryInspection>('inspect') }
}
