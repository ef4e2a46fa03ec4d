import { faultSchema } from '@cutover/core/contracts'
import type { Fault } from '@cutover/core/contracts'

/** The faults field of the new-run form, parsed: the list, or one message per problem. */
export type FaultsInput =
  | { readonly ok: true; readonly faults: Fault[] | undefined }
  | { readonly ok: false; readonly errors: string[] }

/**
 * Parses the faults text as a JSON list and checks each entry with the contract's `faultSchema`.
 * Empty text means "use the scenario's own schedule". Errors name the entry and field, so a
 * person can fix them without reading the schema.
 */
export function parseFaultsInput(text: string): FaultsInput {
  if (text.trim() === '') return { ok: true, faults: undefined }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return {
      ok: false,
      errors: [`not JSON: ${error instanceof Error ? error.message : String(error)}`],
    }
  }
  if (!Array.isArray(value))
    return {
      ok: false,
      errors: [
        'faults must be a JSON list, e.g. [{"kind": "straggler", "rollout": 7, "extra_ms": 500}]',
      ],
    }
  if (value.length > 100) return { ok: false, errors: [`at most 100 faults (got ${value.length})`] }
  const faults: Fault[] = []
  const errors: string[] = []
  value.forEach((entry: unknown, index) => {
    const parsed = faultSchema.safeParse(entry)
    if (parsed.success) {
      faults.push(parsed.data)
      return
    }
    for (const issue of parsed.error.issues) {
      const where = issue.path.length ? `.${issue.path.join('.')}` : ''
      errors.push(`fault ${index}${where}: ${issue.message}`)
    }
  })
  return errors.length ? { ok: false, errors } : { ok: true, faults }
}
