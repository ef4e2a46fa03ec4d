import { Worker } from 'node:worker_threads'
import type { DirectoryInspection } from '@cutover/core'
import type { CheckpointVerification } from './checkpointVerification.ts'

/**
 * Main thread → verification worker: verify the checkpoint folder at `folder`, or inspect it as a
 * directory run (`POST /api/directories`).
 */
export interface ToVerificationWorker {
  readonly id: number
  readonly folder: string
  readonly job: 'verify' | 'inspect'
  /** `verify`: the folder signature of the verification the caller already holds. */
  readonly known?: string | undefined
}

/** Verification worker → main thread. */
export type FromVerificationWorker =
  | { readonly id: number; readonly value: FolderVerification | DirectoryInspection }
  | { readonly id: number; readonly error: string }

/**
 * A folder's verification with the lstat signature it was made against (`folderSignature`);
 * without `verification` when the folder still has the signature the caller said it knew.
 */
export interface FolderVerification {
  readonly signature: string
  readonly verification?: CheckpointVerification
}

/**
 * Verifies checkpoint folders off the server's thread: the lstat walk that tells whether the folder
 * changed since `known`, and the reading and hashing when it did.
 */
export type VerifyCheckpointFolder = (folder: string, known?: string) => Promise<FolderVerification>

/**
 * Inspects a checkpoint directory (`inspectDirectory`: reads, hashes and decodes every file) off
 * the server's thread.
 */
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
 * alive), verifying or inspecting folders in the order asked. A worker that dies rejects what it
 * had pending; the next request starts a fresh one.
 */
export function startCheckpointWorker(bootstrap: URL = BOOTSTRAP): CheckpointWorker {
  let worker: Worker | undefined
  const pending = new Map<
    number,
    { resolve: (value: never) => void; reject: (error: Error) => void }
  >()
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
    (folder: string, known?: string): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const id = (nextId += 1)
        pending.set(id, { resolve: resolve as (value: never) => void, reject })
        started().postMessage({
          id,
          folder,
          job,
          ...(known === undefined ? {} : { known }),
        } satisfies ToVerificationWorker)
      })
  return { verify: ask<FolderVerification>('verify'), inspect: ask<DirectoryInspection>('inspect') }
}
