/**
 * Path hygiene for names read from manifests: a checkpoint may be hostile or damaged, so a path is
 * trusted only when it is relative, `/`-separated and stays inside D.
 */

/**
 * True when `path` is a non-empty relative path whose every segment is a plain name: no leading
 * `/`, no `.` or `..` segment, no empty segment, no backslash (a Windows separator that would
 * escape on another platform), no drive colon, no control character.
 */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 4096) return false
  if (/[\\:]/.test(path) || hasControlCharacter(path)) return false
  if (path.startsWith('/')) return false
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
}

/** True when `name` is one safe path segment (a file name directly inside a namespace folder). */
export function isSafeFileName(name: string): boolean {
  return isSafeRelativePath(name) && !name.includes('/')
}

/** True when `text` holds a C0 control character or DEL (forbidden in paths and instance names). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}
