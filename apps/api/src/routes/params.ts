import { z } from 'zod'
import { ENV_NAMES, SESSION_COLUMNS, SORT_DIRECTIONS, TRACE_PHASES } from '@cutover/core/contracts'

/** `:id` of a run (ids are minted by `runIds.ts`; older or hand-made folders may be shorter). */
export const runIdParam = z
  .string()
  .regex(/^[0-9a-z]{1,64}$/, 'a run id is lower-case letters and digits')

/** `:session` as `<rollout_id>.a<attempt>` (docs/http-api.md). */
export const sessionKeyParam = z
  .string()
  .max(512)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*\.a(0|[1-9][0-9]{0,8})$/,
    'a session is <rollout_id>.a<attempt>, e.g. r004.a1',
  )

/** `:cid`: a checkpoint directory name (a checkpoint id, docs/protocol.md §2.2). */
export const checkpointIdParam = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a checkpoint id is 1–128 of [A-Za-z0-9._-]')

/** A step number in decimal (bounds against the run are checked by the route). */
export const stepText = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,8})$/, 'a step is a non-negative integer')

/** Query of the step view: optional diagram window size and phases to collapse. */
export const stepQuery = z.strictObject({
  window: z
    .string()
    .regex(/^[1-9][0-9]{0,4}$/, 'window is a positive integer')
    .optional(),
  collapsed: z
    .string()
    .max(200)
    .refine(
      (s) => s === '' || s.split(',').every((p) => (TRACE_PHASES as readonly string[]).includes(p)),
      `collapsed is a comma-separated list of ${TRACE_PHASES.join(', ')}`,
    )
    .optional(),
})

/** Query with an optional `step`. */
export const stepOnlyQuery = z.strictObject({ step: stepText.optional() })

/** The most events one range of `GET /api/runs/:id/events` answers. */
export const MAX_EVENTS_LIMIT = 100_000

/**
 * Query of `GET /api/runs/:id/events` by range: the events after step `from` (default 0), at most
 * `limit` of them (default 1,000), only those of a rollout, of an event type or matching the
 * event log's filter words (`q`) when given. Without any of them the route answers the whole list.
 */
export const eventsRangeQuery = z.strictObject({
  from: stepText.optional(),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,5}$/, 'limit is a positive integer')
    .refine((s) => Number(s) <= MAX_EVENTS_LIMIT, `limit is at most ${MAX_EVENTS_LIMIT}`)
    .optional(),
  rollout: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'rollout is a rollout id, e.g. r004')
    .optional(),
  type: z
    .string()
    .max(64)
    .regex(/^[a-z_]+(\.[a-z_]+)*$/, 'type is an event type, e.g. directory.write')
    .optional(),
  q: z.string().max(200).optional(),
})

/** The most rows one window of `GET /api/runs/:id/sessions` answers. */
export const MAX_SESSIONS_LIMIT = 100_000

/**
 * Query of `GET /api/runs/:id/sessions`: the step (default: the run's edge) and, for a window of
 * the rows, the matched rows from `offset` (default 0), at most `limit` of them (default 1,000; 0
 * gives only the counts), sorted by `sort` (a Sessions column, default rollout_id) in `dir`
 * (asc|desc), filtered by `q` (the Sessions filter) and to one `environment`, and where `session`
 * is among them. Without any but `step` the route answers the whole list (SessionsView).
 */
export const sessionsQuery = z.strictObject({
  step: stepText.optional(),
  offset: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})$/, 'offset is a non-negative integer')
    .optional(),
  limit: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,5})$/, 'limit is a non-negative integer')
    .refine((s) => Number(s) <= MAX_SESSIONS_LIMIT, `limit is at most ${MAX_SESSIONS_LIMIT}`)
    .optional(),
  sort: z
    .enum(SESSION_COLUMNS, { message: `sort is one of ${SESSION_COLUMNS.join(', ')}` })
    .optional(),
  dir: z.enum(SORT_DIRECTIONS, { message: 'dir is asc or desc' }).optional(),
  q: z.string().max(200).optional(),
  session: sessionKeyParam.optional(),
  environment: z
    .enum(ENV_NAMES, { message: `environment is one of ${ENV_NAMES.join(', ')}` })
    .optional(),
})

/** A query that takes no parameters (any is refused, naming it). */
export const noQuery = z.strictObject({})

/** The most lanes one window of `GET /api/runs/:id/timeline` answers. */
export const MAX_TIMELINE_LIMIT = 1_000

/**
 * Query of `GET /api/runs/:id/timeline`: the step whose virtual time is `now_ms` (default: the
 * edge), lanes from `offset` (default 0), at most `limit` of them (default 100; 0 gives only the
 * counts, deadlines and gaps), and where the lane of `rollout` is.
 */
export const timelineQuery = z.strictObject({
  step: stepText.optional(),
  offset: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})$/, 'offset is a non-negative integer')
    .optional(),
  limit: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,3})$/, 'limit is a non-negative integer')
    .refine((s) => Number(s) <= MAX_TIMELINE_LIMIT, `limit is at most ${MAX_TIMELINE_LIMIT}`)
    .optional(),
  rollout: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'rollout is a rollout id, e.g. r004')
    .optional(),
})
