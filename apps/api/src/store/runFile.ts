import type { Result } from '@cutover/core'
import { canonicalJson, err, ok } from '@cutover/core'
import { nodeDigest } from '@cutover/core/adapters'
import type { InvariantMap, RunView } from '@cutover/core/contracts'
import { INVARIANT_IDS } from '@cutover/core/contracts'
import { describeIssues } from '../http/jsonBody.ts'
import { storedRunViewSchema } from './runViewSchema.ts'

/** The key of run.json that seals the rest of it. */
const SEAL = 'sha256'

/** The SHA-256 of a run view's canonical JSON: every key and every value of it. */
const sealOf = (view: object): string => nodeDigest.sha256Hex(canonicalJson(view))

/**
 * run.json's text: the RunView with `sha256`, the digest of its canonical JSON, so a changed byte
 * anywhere in a key or a value is found on load (`openRunFile`).
 */
export function sealRunFile(view: RunView): string {
  const plain = JSON.parse(JSON.stringify(view)) as Record<string, unknown>
  return `${JSON.stringify({ ...plain, [SEAL]: sealOf(plain) }, null, 2)}\n`
}

/**
 * A run.json read back: its RunView when it is whole (its digest matches, its fields check), else
 * the reason. A file without `sha256` was written by an older build: it is read unchecked, but
 * only with no key a RunView does not have (a damaged `sha256` key is not an old file).
 */
export function openRunFile(text: string): Result<RunView, string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return err(`run.json is not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return err('run.json is not a JSON object')
  const { [SEAL]: seal, ...rest } = parsed as Record<string, unknown>
  if (seal === undefined) {
    const known = new Set<string>(Object.keys(storedRunViewSchema.shape))
    const unknown = Object.keys(rest).filter((k) => !known.has(k))
    if (unknown.length > 0)
      return err(`run.json has no ${SEAL} and unknown keys: ${unknown.slice(0, 5).join(', ')}`)
  } else if (seal !== sealOf(rest))
    return err(`run.json does not match its ${SEAL}: its content changed after it was written`)
  const view = storedRunViewSchema.safeParse(rest)
  if (!view.success) return err(`run.json: ${describeIssues(view.error)}`)
  return ok(view.data)
}

/**
 * The view a damaged run is listed with: status `damaged`, the reason in `error`, and each field
 * of the file that still checks on its own (the rest are empty defaults), so a list can show it.
 */
export function damagedRunView(folder: string, text: string, reason: string): RunView {
  let fields: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      fields = parsed as Record<string, unknown>
  } catch {
    // nothing of it is readable
  }
  const shape = storedRunViewSchema.shape
  const field = <K extends keyof typeof shape>(key: K, fallback: RunView[K]): RunView[K] => {
    const checked = shape[key].safeParse(fields[key])
    return checked.success && fields[key] !== undefined ? (checked.data as RunView[K]) : fallback
  }
  const pass = Object.fromEntries(INVARIANT_IDS.map((id) => [id, 'pass'])) as InvariantMap
  return {
    id: folder,
    kind: field('kind', 'simulated'),
    scenario: field('scenario', 'happy-path'),
    seed: field('seed', '0'),
    rollouts: field('rollouts', 1),
    deadline_ms: field('deadline_ms', 0),
    faults: field('faults', []),
    inert_faults: field('inert_faults', []),
    status: 'damaged',
    created_at: field('created_at', ''),
    events: field('events', 0),
    outcome: null,
    checkpoints: [],
    damaged: [],
    invariants: field('invariants', pass),
    failures: [],
    error: reason,
  }
}
