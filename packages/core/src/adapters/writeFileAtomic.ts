import { closeSync, constants, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

let counter = 0

/** Writes every byte of `bytes` to `fd` (`writeSync` may write fewer than asked). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset)
}

/** Makes the creates, renames and removals inside folder `path` durable. */
export function fsyncFolder(path: string): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Writes one file so a crash leaves either the old content or the new, never a torn file: a temp
 * file beside it, fsynced, renamed over the target, then the folder fsynced. For single files
 * (the run store's run.json and trace.json); a checkpoint directory batches its durability in
 * `NodeCheckpointDirectory.sync()` instead.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const folder = dirname(path)
  counter += 1
  const temp = join(folder, `.${basename(path)}.${process.pid}.${counter}.tmp`)
  const fd = openSync(temp, 'w', 0o644)
  try {
    writeAll(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  fsyncFolder(folder)
}
