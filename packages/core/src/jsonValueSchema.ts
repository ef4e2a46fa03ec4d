import { z } from 'zod'
import type { JsonValue } from './json.ts'

/**
 * Runtime schema of `JsonValue`: any JSON value, nested to any depth (files and snapshots on disk).
 */
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
)
