import { z } from 'zod'
import { TRACE_PHASES } from '@cutover/core/contracts'

/** `:id` of a run (ids are minted by `runIds.ts`; older or hand-made folders may be shorter). */
export const runIdParam = z.string().regex(/^[0-9a-z]{1,64}$/, 'a run id is lower-case letters and digits')

/** `:session` as `<rollout_id>.a<attempt>` (CONTRACTS.md §7). */
export const sessionKeyParam = z.string().max(512).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.a(0|[1-9][0-9]{0,8})$/, 'a session is <rollout_id>.a<attempt>, e.g. r004.a1')

/** `:cid`: a checkpoint directory name (a checkpoint id, PROTOCOL.md §2.2). */
export const checkpointIdParam = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a checkpoint id is 1–128 of [A-Za-z0-9._-]')

/** A step number in decimal (bounds against the run are checked by the route). */
export const stepText = z.string().regex(/^(0|[1-9][0-9]{0,8})$/, 'a step is a non-negative integer')

/** Query of the step view: optional diagram window size and phases to collapse. */
export const stepQuery = z.strictObject({
  window: z.string().regex(/^[1-9][0-9]{0,4}$/, 'window is a positive integer').optional(),
  collapsed: z
    .string()
    .max(200)
    .refine((s) => s === '' || s.split(',').every((p) => (TRACE_PHASES as readonly string[]).includes(p)), `collapsed is a comma-separated list of ${TRACE_PHASES.join(', ')}`)
    .optional(),
})

/** Query with an optional `step`. */
export const stepOnlyQuery = z.strictObject({ step: stepText.optional() })
