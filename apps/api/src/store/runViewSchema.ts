import { z } from 'zod'
import {
  BUG_NAMES,
  CUT_MODES,
  INVARIANT_IDS,
  RUN_KINDS,
  SCENARIO_NAMES,
  faultSchema,
} from '@cutover/core/contracts'
import type { RunView } from '@cutover/core/contracts'

// A run stored by an older build lacks the invariants added since (call-id-unique,
// acks-before-prepare, token-partition, durable-before-ack, egress-fenced): it reads as not failing
// them; its re-simulation then diverges and the page offers a re-run.
const invariantMapSchema = z.object(
  Object.fromEntries(INVARIANT_IDS.map((id) => [id, z.enum(['pass', 'fail']).default('pass')])) as {
    [K in (typeof INVARIANT_IDS)[number]]: z.ZodDefault<z.ZodEnum<{ pass: 'pass'; fail: 'fail' }>>
  },
)

/** `run.json` as read back from the data directory: a RunView, checked before it is served. */
export const storedRunViewSchema = z.object({
  id: z.string().regex(/^[0-9a-z]{1,64}$/),
  // Runs stored before runs had a kind were all simulated.
  kind: z.enum(RUN_KINDS).default('simulated'),
  scenario: z.enum(SCENARIO_NAMES),
  seed: z.string().regex(/^[0-9]+$/),
  rollouts: z.number().int().positive(),
  deadline_ms: z.number().int().nonnegative(),
  faults: z.array(faultSchema),
  bug: z.enum(BUG_NAMES).optional(),
  cut_mode: z.enum(CUT_MODES).optional(),
  inert_faults: z.array(z.object({ fault: faultSchema, reason: z.string() })).default([]),
  status: z.enum(['running', 'complete', 'failed']),
  created_at: z.string(),
  events: z.number().int().nonnegative(),
  outcome: z.enum(['completed', 'aborted']).nullable(),
  checkpoints: z.array(z.string()),
  damaged: z.array(z.string()),
  invariants: invariantMapSchema,
  failures: z.array(
    z.object({
      id: z.enum(INVARIANT_IDS),
      step: z.number().int().nonnegative(),
      message: z.string(),
    }),
  ),
  error: z.string().optional(),
  parent: z
    .string()
    .regex(/^[0-9a-z]{1,64}$/)
    .optional(),
  processes: z
    .array(
      z.object({
        participant: z.string(),
        name: z.string(),
        pid: z.number().int().nonnegative(),
        port: z.number().int().nonnegative(),
        role: z.enum(['original', 'replacement']),
      }),
    )
    .optional(),
}) satisfies z.ZodType<RunView>
