import { useMemo } from 'react'
import type { InvariantFailure, KeyMoment } from '@cutover/core/contracts'
import { useFilteredEvents } from '../api/useRangeEvents.ts'
import { keyMoments, rolloutNeighbours } from '../lib/keyMoments.ts'

/**
 * Ways into a run's story: a list of key moments to jump to (faults taking effect, stragglers
 * retired, checkpoints published, restores, first invariant failures) and, for the selected
 * session, the previous/next event of its rollout. The moments come from the run's summary; the
 * rollout's events are asked of the server by filter (not read from the whole trace).
 */
export function StoryNav({
  runId,
  summary,
  edge,
  failures,
  step,
  session,
  onSeek,
}: {
  runId: string
  summary: readonly KeyMoment[]
  /**
   * Where a running run's rollout events were last asked (asked again when it moves); -1 for a
   * finished run.
   */
  edge: number
  failures: readonly InvariantFailure[]
  step: number
  session: string | null
  onSeek: (step: number) => void
}) {
  const moments = useMemo(() => keyMoments(summary, failures), [summary, failures])
  const rollout = session === null ? null : session.replace(/\.a\d+$/, '')
  const events = useFilteredEvents(runId, { rollout: rollout ?? '' }, edge, rollout !== null)
  const around =
    rollout === null || events === null ? null : rolloutNeighbours(events, rollout, step)
  return (
    <div className="story-nav" role="group" aria-label="Story">
      {moments.length > 0 && (
        <label className="small">
          Key moments{' '}
          <select
            aria-label="key moments"
            value=""
            onChange={(e) => e.currentTarget.value !== '' && onSeek(Number(e.currentTarget.value))}
          >
            <option value="">jump to…</option>
            {moments.map((m) => (
              <option key={`${m.step}-${m.label}`} value={m.step}>
                step {m.step}: {m.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {rollout !== null && around !== null && (
        <span className="small rollout-nav">
          <span className="mono">{rollout}</span>{' '}
          <button
            type="button"
            aria-label={`previous event of ${rollout}`}
            disabled={around.previous === undefined}
            onClick={() => around.previous !== undefined && onSeek(around.previous)}
          >
            ← event
          </button>{' '}
          <button
            type="button"
            aria-label={`next event of ${rollout}`}
            disabled={around.next === undefined}
            onClick={() => around.next !== undefined && onSeek(around.next)}
          >
            event →
          </button>
        </span>
      )}
    </div>
  )
}
