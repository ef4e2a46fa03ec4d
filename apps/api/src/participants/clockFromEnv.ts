import type { Clock } from '@cutover/core'
import { UsageError } from '../process/io.ts'

/** The variable that shifts a participant process's wall clock (replaying a recording). */
export const CLOCK_OFFSET_ENV = 'CUTOVER_CLOCK_OFFSET_MS'

/**
 * A participant process's clock: the wall clock plus `CUTOVER_CLOCK_OFFSET_MS` (an integer, may
 * be negative; default 0). Deadlines arrive as absolute Unix times; a recording replayed later (the
 * real controller's requests in vendor/real_stack/) carries deadlines long past, so its replay
 * starts the participants with the clock set back to the recording's time. Anything but an
 * integer is a usage error (exit 2).
 */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const raw = env[CLOCK_OFFSET_ENV]
  if (raw === undefined || raw.trim() === '') return { now: () => Date.now() }
  if (!/^-?\d{1,16}$/.test(raw.trim()))
    throw new UsageError(`${CLOCK_OFFSET_ENV} must be an integer number of milliseconds`)
  const offset = Number(raw.trim())
  return { now: () => Date.now() + offset }
}
