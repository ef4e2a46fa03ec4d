import type { Digest } from '../ports.ts'
import type { CheckpointDirectory, DirectoryEntry } from './CheckpointDirectory.ts'

/**
 * One consistent read of D: the listing taken once, each file read and hashed at most once. The
 * verifier and the loaders share a view so a 1,000-file directory is hashed once, not per check.
 */
export interface DirectoryView {
  readonly dir: CheckpointDirectory
  readonly digest: Digest
  readonly entries: ReadonlyMap<string, DirectoryEntry>
  /** The file's bytes (cached); undefined when there is no regular file there. */
  read(path: string): Uint8Array | undefined
  /** SHA-256 of the file's bytes (cached); undefined when there is no regular file there. */
  sha256(path: string): string | undefined
  /** Paths of every entry strictly below `folder/`, sorted. */
  below(folder: string): readonly DirectoryEntry[]
  /**
   * Drops the file's cached bytes once its checks are done (its hash stays), so a check over every
   * file holds one file's bytes at a time; a later `read` reads D again.
   */
  release(path: string): void
}

/** Lists D once and returns a caching view over it. */
export function createDirectoryView(dir: CheckpointDirectory, digest: Digest): DirectoryView {
  const listed = dir.list()
  const entries = new Map(listed.map((e) => [e.path, e]))
  const bytes = new Map<string, Uint8Array | undefined>()
  const hashes = new Map<string, string | undefined>()
  const read = (path: string): Uint8Array | undefined => {
    if (!bytes.has(path)) bytes.set(path, dir.readFile(path))
    return bytes.get(path)
  }
  return {
    dir,
    digest,
    entries,
    read,
    sha256(path) {
      if (!hashes.has(path)) {
        const data = read(path)
        hashes.set(path, data === undefined ? undefined : digest.sha256Hex(data))
      }
      return hashes.get(path)
    },
    below(folder) {
      const prefix = `${folder}/`
      return listed.filter((e) => e.path.startsWith(prefix))
    },
    release(path) {
      bytes.delete(path)
    },
  }
}
