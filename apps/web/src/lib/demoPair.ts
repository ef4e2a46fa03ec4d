import { DEFAULT_CUT_MODE } from '@cutover/core/contracts'
import type { RunView, ScenarioInfo } from '@cutover/core/contracts'

/** The two runs the generation-cut demo shows, as far as they exist, and the seed they share. */
export interface DemoPair {
  /** The `whole-request` run (`straggler-retirement`). */
  readonly a: RunView | null
  /** The `generation-safe` run (`generation-safe-cut`). */
  readonly b: RunView | null
  /** The seed a missing run must be started with (null: neither exists, any seed will do). */
  readonly seed: string | null
}

/**
 * A run of the preset exactly as configured (fleet size, deadline, faults, cut mode, no teaching
 * bug).
 */
export const matchesPreset = (run: RunView, preset: ScenarioInfo): boolean =>
  run.scenario === preset.name &&
  (run.cut_mode ?? DEFAULT_CUT_MODE) === (preset.config.cut_mode ?? DEFAULT_CUT_MODE) &&
  run.status !== 'failed' &&
  run.bug === undefined &&
  run.rollouts === preset.config.rollouts &&
  run.deadline_ms === preset.config.deadline_ms &&
  JSON.stringify(run.faults) === JSON.stringify(preset.faults)

/**
 * Picks the newest pair of preset runs with the same seed. Without a full pair, the newest run of
 * either preset is kept (the generation-safe one first) and its seed names the run still to start.
 * Pure.
 */
export function demoPair(
  runs: readonly RunView[],
  presetA: ScenarioInfo,
  presetB: ScenarioInfo,
): DemoPair {
  const newest = [...runs].sort((x, y) => y.created_at.localeCompare(x.created_at))
  const as = newest.filter((r) => matchesPreset(r, presetA))
  const bs = newest.filter((r) => matchesPreset(r, presetB))
  for (const b of bs) {
    const a = as.find((r) => r.seed === b.seed)
    if (a) return { a, b, seed: b.seed }
  }
  const b = bs[0] ?? null
  if (b) return { a: null, b, seed: b.seed }
  const a = as[0] ?? null
  return { a, b: null, seed: a?.seed ?? null }
}
