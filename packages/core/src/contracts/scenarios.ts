import { z } from 'zod'
import type { BugName } from './bugs.ts'
import { BUG_NAMES } from './bugs.ts'
import type { CutMode } from './generationCuts.ts'
import { CUT_MODES } from './generationCuts.ts'
import { INTEGER_FIELDS, SEED_RULE, integerRule } from './numberFields.ts'
export { MAX_ROLLOUTS } from './numberFields.ts'

/** A rollout named by id (`r004`) or by index (4). */
const rolloutRef = z.union([
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  z.number().int().nonnegative(),
])

/** Fault kinds and their fields (docs/protocol.md §12.3). Strict: unknown fields are refused. */
export const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('straggler'),
    rollout: rolloutRef,
    extra_ms: z.number().int().nonnegative().max(3_600_000),
  }),
  z.strictObject({
    kind: z.literal('stale_request'),
    rollout: rolloutRef,
    participant: z.enum(['policy_model', 'agent', 'resources']),
  }),
  z.strictObject({
    kind: z.literal('corrupt_file'),
    namespace: z.enum(['resources', 'agent', 'model-ledger']),
    index: z.number().int().nonnegative(),
  }),
  z.strictObject({ kind: z.literal('crash_after_write'), k: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('missing_worker'), worker: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('unacked_result'), rollout: rolloutRef }),
  z.strictObject({ kind: z.literal('duplicate_claim'), rollout: rolloutRef }),
  // generation-safe cuts (docs/protocol.md §11; only in `cut_mode: "generation-safe"`)
  z.strictObject({ kind: z.literal('constrained_decoding'), rollout: rolloutRef }),
  z.strictObject({ kind: z.literal('cut_stage_failure'), rollout: rolloutRef }),
  z.strictObject({ kind: z.literal('corrupt_segment'), index: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('duplicate_cut_claim'), rollout: rolloutRef }),
])
export type Fault = z.infer<typeof faultSchema>
export type FaultKind = Fault['kind']

/** Every fault kind, in the schema's order. */
export const FAULT_KINDS: readonly FaultKind[] = faultSchema.options.map((o) => o.shape.kind.value)

/**
 * Fault kinds that only mean something when prepare cuts generations (`cut_mode:
 * "generation-safe"`).
 */
export const CUT_FAULT_KINDS = [
  'constrained_decoding',
  'cut_stage_failure',
  'corrupt_segment',
  'duplicate_cut_claim',
] as const satisfies readonly FaultKind[]

export const SCENARIO_NAMES = [
  'happy-path',
  'straggler-retirement',
  'stale-attempt-fenced',
  'corrupt-snapshot',
  'crash-during-commit',
  'two-worker-admission',
  'receipt-replay',
  'restore-race',
  // generation-safe cuts (docs/protocol.md §11)
  'generation-safe-cut',
  'completed-before-egress',
  'constrained-decoding-excluded',
  'cut-stage-failure',
  'corrupt-prefix-segment',
  'cut-restore-race',
] as const
export type ScenarioName = (typeof SCENARIO_NAMES)[number]

/** A scenario preset as listed by `GET /api/scenarios` and `cutover simulate --help`. */
export interface ScenarioInfo {
  readonly name: ScenarioName
  readonly title: string
  readonly narrative: string
  readonly config: {
    readonly rollouts: number
    readonly deadline_ms: number
    readonly cut_mode?: CutMode
  }
  readonly faults: readonly Fault[]
}

/** A seed: a number up to 2^53 − 1 or a decimal string of any size (docs/protocol.md §12.1). */
export const seedSchema = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z.string().regex(/^[0-9]+$/, SEED_RULE),
])

/** A JSON integer field with the shared rule as its one message. */
const integerField = ({ min, max }: { readonly min: number; readonly max: number }) =>
  z
    .number({ message: integerRule(min, max) })
    .int({ message: integerRule(min, max) })
    .min(min, { message: integerRule(min, max) })
    .max(max, { message: integerRule(min, max) })

/** The body of `POST /api/runs`. */
export const runConfigSchema = z.strictObject({
  scenario: z.enum(SCENARIO_NAMES),
  seed: seedSchema.optional(),
  rollouts: integerField(INTEGER_FIELDS.rollouts).optional(),
  deadline_ms: integerField(INTEGER_FIELDS.deadline_ms).optional(),
  faults: z.array(faultSchema).max(100).optional(),
  bug: z.enum(BUG_NAMES).optional(),
  cut_mode: z
    .enum(CUT_MODES, { message: `cut_mode must be one of ${CUT_MODES.join(', ')}` })
    .optional(),
})
export type RunConfigInput = z.infer<typeof runConfigSchema>

/** A run's config with every default resolved. `seed` is decimal text so any size survives JSON. */
export interface RunConfig {
  readonly scenario: ScenarioName
  readonly seed: string
  readonly rollouts: number
  readonly deadline_ms: number
  readonly faults: readonly Fault[]
  /** A teaching-mode bug (absent for a correct run). */
  readonly bug?: BugName
  /**
   * Absent means `whole-request` (so a whole-request config is byte-identical to before cuts
   * existed).
   */
  readonly cut_mode?: CutMode
}

/**
 * A fault of the run's schedule that never fired, and why (docs/protocol.md §12.3
 * `inert_faults`).
 */
export interface InertFault {
  readonly fault: Fault
  readonly reason: string
}
