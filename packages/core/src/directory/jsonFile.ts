import { canonicalJson } from '../json.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { decodeUtf8, encodeUtf8 } from '../utf8.ts'

/**
 * The bytes of a JSON file in D: canonical JSON plus a trailing newline, so bytes are
 * deterministic.
 */
export function encodeJsonFile(value: unknown): Uint8Array {
  return encodeUtf8(`${canonicalJson(value)}\n`)
}

/** One JSONL line per value, each canonical, each ending in a newline. */
export function encodeJsonLines(values: readonly unknown[]): Uint8Array {
  return encodeUtf8(values.map((v) => `${canonicalJson(v)}\n`).join(''))
}

/** Parses a JSON file's bytes; a message when they are not UTF-8 JSON (never throws). */
export function parseJsonFile(bytes: Uint8Array): Result<unknown, string> {
  const text = decodeUtf8(bytes)
  if (text === undefined) return err('not valid UTF-8')
  try {
    return ok(JSON.parse(text) as unknown)
  } catch (e) {
    return err(`not valid JSON: ${(e as Error).message}`)
  }
}

/** Parses JSONL (one value per non-empty line); the message names the first bad line. */
export function parseJsonLines(bytes: Uint8Array): Result<unknown[], string> {
  const text = decodeUtf8(bytes)
  if (text === undefined) return err('not valid UTF-8')
  const out: unknown[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (line === '' && i === lines.length - 1) continue
    try {
      out.push(JSON.parse(line) as unknown)
    } catch (e) {
      return err(`line ${i + 1} is not valid JSON: ${(e as Error).message}`)
    }
  }
  return ok(out)
}
