/**
 * Run ids: short, sortable, unique. The creation time in base-36 milliseconds (9 digits, sortable
 * until the year 5188) followed by a 2-digit base-36 sequence for ids minted within the same
 * millisecond, or after the clock stepped back. `existing` keeps ids unique across restarts.
 */
export interface RunIdSource {
  next(nowMs: number, existing: (id: string) => boolean): string
}

/** The id of a run: 11 lower-case base-36 characters. */
export const RUN_ID_PATTERN = /^[0-9a-z]{11}$/

export function createRunIdSource(): RunIdSource {
  let lastMs = -1
  let seq = 0
  return {
    next(nowMs, existing) {
      for (;;) {
        const ms = Math.max(0, Math.floor(nowMs))
        if (ms > lastMs) {
          lastMs = ms
          seq = 0
        } else {
          seq += 1
          if (seq >= 36 * 36) {
            lastMs += 1
            seq = 0
          }
        }
        const id = lastMs.toString(36).padStart(9, '0') + seq.toString(36).padStart(2, '0')
        if (!existing(id)) return id
      }
    },
  }
}
