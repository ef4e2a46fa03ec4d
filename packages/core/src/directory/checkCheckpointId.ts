import { ID_PATTERN } from '../records/idPattern.ts'

/**
 * A message when `id` is not a valid checkpoint id (1–128 chars, docs/protocol.md §2.2), else
 * undefined.
 */
export function checkCheckpointId(id: string): string | undefined {
  if (id.length < 1 || id.length > 128 || !ID_PATTERN.test(id))
    return `invalid checkpoint id ${JSON.stringify(id)}`
  return undefined
}
