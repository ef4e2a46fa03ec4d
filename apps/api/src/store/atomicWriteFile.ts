import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

let counter = 0

/**
 * Writes a file so a crash leaves either the old content or the new, never a torn file: write a
 * temp file beside it, fsync it, rename over the target, fsync the directory.
 */
export function atomicWriteFile(path: string, data: string | Uint8Array): void {
  const dir = dirname(path)
  counter += 1
  const temp = join(dir, `.${basename(path)}.${process.pid}.${counter}.tmp`)
  const fd = openSync(temp, 'w', 0o644)
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    let offset = 0
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  fsyncDirectory(dir)
}

/** Makes a rename or create inside `dir` durable. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
