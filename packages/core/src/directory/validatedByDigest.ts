/**
 * Parsed-and-validated file contents by the SHA-256 of their bytes, per parser. The commit path
 * writes a namespace and reads it back to verify it, publish reads every namespace again, and
 * restore reads the same bytes once more: identical bytes give an identical parse, so after the
 * digest check (which always runs) a file already validated is not parsed and schema-checked
 * again. Only successes are kept (failures name the file's path). Bounded: the oldest entries go
 * first. Deterministic: a cache hit returns what a fresh parse would.
 */
const caches = new WeakMap<object, Map<string, unknown>>()
let size = 0
const LIMIT = 200_000

export function validatedByDigest<R extends { readonly ok: boolean }>(parser: object, sha256: string, parse: () => R): R {
  let cache = caches.get(parser)
  if (cache === undefined) {
    cache = new Map()
    caches.set(parser, cache)
  }
  const hit = cache.get(sha256) as R | undefined
  if (hit !== undefined) return hit
  const result = parse()
  if (result.ok) {
    if (size >= LIMIT) {
      // Coarse bound: start over rather than track global recency across parsers.
      cache.clear()
      size = 0
    }
    cache.set(sha256, result)
    size++
  }
  return result
}
