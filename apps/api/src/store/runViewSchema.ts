import { z } from 'zod'
import {
  BUG_NAMES,
  CUT_MODES,
  INVARIANT_IDS,
  RECORDED_CHECK_IDS,
  RECORDED_SCENARIO,
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

/** A recorded run's `recording` (docs/recording.md). */
const recordingSchema = z.object({
  name: z.string().nullable(),
  source: z.enum(['record', 'import']),
  exchanges: z.number().int().nonnegative(),
  participants: z.array(z.string()),
  proxies: z.array(z.object({ name: z.string(), url: z.string(), upstream: z.string() })),
  recorder_pid: z.number().int().positive().optional(),
  root: z.string(),
  checkpoint_dirs: z.array(z.string()),
  problems: z.array(z.object({ line: z.number().int().positive(), message: z.string() })),
  directories: z.array(
    z.object({
      checkpoint_id: z.string(),
      path: z.string(),
      exists: z.boolean(),
      published: z.boolean(),
    }),
  ),
  checks: z.array(
    z.object({
      id: z.enum(RECORDED_CHECK_IDS),
      status: z.enum(['pass', 'fail', 'not_observed']),
      step: z.number().int().nonnegative().nullable(),
      exchange: z.number().int().positive().nullable(),
      message: z.string(),
    }),
  ),
})

/** `run.json` as read back from the data directory: a RunView, checked before it is served. */
export const storedRunViewSchema = z.object({
  id: z.string().regex(/^[0-9a-z]{1,64}$/),
  // Runs stored before runs had a kind were all simulated.
  kind: z.enum(RUN_KINDS).default('simulated'),
  scenario: z.enum([...SCENARIO_NAMES, RECORDED_SCENARIO]),
  seed: z.string().regex(/^[0-9]+$/),
  // A recorded run may hold no rollout (a recording of control calls only).
  rollouts: z.number().int().nonnegative(),
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
  recording: recordingSchema.optional(),
}) satisfies z.ZodType<RunView>
