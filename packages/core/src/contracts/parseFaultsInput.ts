import { didYouMean, unknownNameMessage } from './didYouMean.ts'
import type { Fault } from './scenarios.ts'
import { FAULT_KINDS, faultSchema } from './scenarios.ts'

/** Fault-list text (the new-run form's field, `cutover simulate --faults`), parsed. */
export type FaultsInput =
  | { readonly ok: true; readonly faults: Fault[] | undefined }
  | { readonly ok: false; readonly errors: string[] }

export const FAULTS_EXAMPLE = '[{"kind": "straggler", "rollout": 7, "extra_ms": 500}]'

/**
 * ` (line 2, column 14)` for a JSON.parse message naming `position N` in `text` (a fault list read
 * from a file spans lines); empty when the message names no position or already names the line.
 */
function lineAndColumn(text: string, message: string): string {
  const at = /position (\d+)/.exec(message)
  if (at === null || /\bline \d+/.test(message)) return ''
  const before = text.slice(0, Number(at[1]))
  const line = before.split('\n').length
  return ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`
}

/** The fields a fault of `kind` takes (its schema's keys). */
function fieldsOf(kind: unknown): string[] {
  const option = faultSchema.options.find((o) => o.shape.kind.value === kind)
  return option === undefined ? [] : Object.keys(option.shape)
}

/** ` ('extra': did you mean 'extra_ms'?)` for each unknown field that is near a known one. */
function fieldHints(issue: { code: string; keys?: readonly string[] }, kind: unknown): string {
  if (issue.code !== 'unrecognized_keys') return ''
  const known = fieldsOf(kind)
  return (issue.keys ?? [])
    .map((key) => {
      const near = didYouMean(key, known)
      return near === undefined ? '' : ` ('${key}': did you mean '${near}'?)`
    })
    .join('')
}

/**
 * Parses fault-list text as a JSON list and checks each entry with the contract's `faultSchema`.
 * Empty text means "use the scenario's own schedule". Errors name the entry and field (malformed
 * JSON: the parser's position; an unknown kind: the nearest kind), so a person can fix them
 * without reading the schema. One implementation for the web form and the CLI.
 */
export function parseFaultsInput(text: string): FaultsInput {
  if (text.trim() === '') return { ok: true, faults: undefined }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { ok: false, errors: [`not JSON: ${message}${lineAndColumn(text, message)}`] }
  }
  if (!Array.isArray(value))
    return { ok: false, errors: [`faults must be a JSON list, e.g. ${FAULTS_EXAMPLE}`] }
  if (value.length > 100) return { ok: false, errors: [`at most 100 faults (got ${value.length})`] }
  const faults: Fault[] = []
  const errors: string[] = []
  value.forEach((entry: unknown, index) => {
    const kind = (entry as { kind?: unknown } | null)?.kind
    if (typeof kind === 'string' && !(FAULT_KINDS as readonly string[]).includes(kind)) {
      errors.push(`fault ${index}.kind: ${unknownNameMessage('fault kind', kind, FAULT_KINDS)}`)
      return
    }
    const parsed = faultSchema.safeParse(entry)
    if (parsed.success) {
      faults.push(parsed.data)
      return
    }
    for (const issue of parsed.error.issues) {
      const where = issue.path.length ? `.${issue.path.join('.')}` : ''
      errors.push(`fault ${index}${where}: ${issue.message}${fieldHints(issue, kind)}`)
    }
  })
  return errors.length ? { ok: false, errors } : { ok: true, faults }
}
