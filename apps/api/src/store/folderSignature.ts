import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A cheap fingerprint of everything under `root`: each entry's relative path, kind, size, inode
 * and change time (lstat, never following links). Any write, rename, removal, new file or symlink
 * changes it, so a view computed from the folder's contents can be reused while it is unchanged —
 * without reading or hashing a single file.
 */
export function folderSignature(root: string): string {
  const parts: string[] = []
  const walk = (folder: string, prefix: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name)
      const s = lstatSync(path, { bigint: true })
      parts.push(
        `${prefix}${name}\u0000${s.isDirectory() ? 'd' : s.isSymbolicLink() ? 'l' : 'f'}\u0000${s.size}\u0000${s.ino}\u0000${s.mtimeNs}\u0000${s.ctimeNs}`,
      )
      if (s.isDirectory()) walk(path, `${prefix}${name}/`)
    }
  }
  try {
    const top = lstatSync(root, { bigint: true })
    parts.push(`\u0000${top.ino}\u0000${top.mtimeNs}`)
    walk(root, '')
  } catch (error) {
    return `unreadable: ${error instanceof Error ? error.message : String(error)}`
  }
  return parts.join('\n')
}
