import { useCallback, useState } from 'react'
import { useQueries } from '@tanstack/react-query'
import type { TimelineBar, TimelineLane, TimelineView } from '@cutover/core/contracts'
import { timelineQuery } from '../api/queries.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { VirtualList } from './VirtualList.tsx'

const LANE_HEIGHT = 28
/** Lanes per request: the tab asks the pages of the lanes in view, never all 10,000. */
export const TIMELINE_PAGE = 50
const LIST_HEIGHT = 392
/** An instantaneous bar (a tool call answered in the same millisecond) is drawn this wide. */
const MIN_BAR_PERCENT = 0.35

const KIND_LABELS: { readonly [K in TimelineBar['kind']]: string } = {
  model: 'model call',
  tool: 'tool call',
  parked: 'parked',
  stale: 'stale request',
}

/** Where virtual time `ms` sits on the track, in percent of its width. */
const at = (view: Pick<TimelineView, 'start_ms' | 'end_ms'>, ms: number) => {
  const span = Math.max(1, view.end_ms - view.start_ms)
  return ((ms - view.start_ms) / span) * 100
}

/** Round tick values across the run's virtual time (about six of them). */
function ticks(start: number, end: number): number[] {
  const span = Math.max(1, end - start)
  const raw = span / 6
  const pow = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * pow).find((m) => m >= raw) ?? raw
  const out: number[] = []
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) out.push(t)
  return out
}

/**
 * The Timeline tab (Jaeger's trace view over virtual time): one lane per rollout, bars for model
 * calls, tool calls, parked time and stale requests, the prepare deadline as a vertical line,
 * retired attempts struck through, the restore gap shaded, the continued call marked; a click on
 * a bar goes to its step. The lanes come a page at a time for the rows in view (10,000 rollouts
 * scroll like nine).
 */
export function TimelineTab({
  runId,
  total,
  nowMs,
  onJump,
}: {
  runId: string
  /** The run's events so far (a running run's timeline is asked again as it grows). */
  total: number
  /** The virtual time of the step shown (its cursor line), or null at step 0. */
  nowMs: number | null
  onJump: (step: number) => void
}) {
  const [range, setRange] = useState({ start: 0, end: 0 })
  const onRange = useCallback(
    (start: number, end: number) =>
      setRange((old) => (old.start === start && old.end === end ? old : { start, end })),
    [],
  )
  const pages = [0]
  for (let p = Math.floor(range.start / TIMELINE_PAGE); p * TIMELINE_PAGE < range.end; p++)
    if (p !== 0) pages.push(p)
  const answers = useQueries({
    queries: pages.map((p) => ({
      ...timelineQuery(runId, { total, offset: p * TIMELINE_PAGE, limit: TIMELINE_PAGE }),
      placeholderData: (previous: TimelineView | undefined) => previous,
    })),
  })
  const first = answers[0]
  const head = first?.data
  const lanes = new Map<number, TimelineLane>()
  for (const answer of answers) {
    const data = answer.data
    if (data) data.lanes.forEach((lane, i) => lanes.set(data.offset + i, lane))
  }
  if (!head)
    return first?.status === 'error' ? (
      <ErrorNotice
        what="load the timeline"
        error={first.error}
        onRetry={() => void first.refetch()}
      />
    ) : (
      <Loading what="the timeline" minHeight={LIST_HEIGHT} />
    )
  if (head.rollouts === 0) return <Empty>No rollout has been dispatched yet.</Empty>
  const slots = Array.from({ length: head.rollouts }, (_, i) => i)
  return (
    <div className="timeline" data-testid="timeline" data-rollouts={head.rollouts}>
      <p className="tl-legend small">
        <span className="tl-key kind-model">model call</span>
        <span className="tl-key kind-tool">tool call</span>
        <span className="tl-key kind-parked">parked</span>
        <span className="tl-key kind-stale">stale request</span>
        <span className="tl-key is-retired">retired attempt</span>
        <span className="tl-key is-continued">continued call</span>
        <span className="tl-key tl-key-gap">restore gap</span>
        <span className="muted">
          {head.rollouts.toLocaleString('en-US')} rollouts · {head.start_ms}–{head.end_ms} ms of
          virtual time · click a bar to go to its step
        </span>
      </p>
      <div className="tl-axis" aria-hidden="true">
        <span className="tl-label" />
        <div className="tl-track">
          {ticks(head.start_ms, head.end_ms).map((t) => (
            <span key={t} className="tl-tick" style={{ left: `${at(head, t)}%` }}>
              {t} ms
            </span>
          ))}
          {head.deadlines.map((d) => (
            <span
              key={d.step}
              className="tl-deadline-mark"
              data-testid="timeline-deadline"
              data-ms={d.ms}
              style={{ left: `${at(head, d.ms)}%` }}
              title={`prepare deadline at ${d.ms} ms (prepare began at step ${d.step})`}
            >
              deadline {d.ms} ms
            </span>
          ))}
        </div>
      </div>
      <VirtualList
        items={slots}
        rowHeight={LANE_HEIGHT}
        height={Math.min(LIST_HEIGHT, head.rollouts * LANE_HEIGHT + 2)}
        label="Rollout lanes"
        role="list"
        onRange={onRange}
        renderRow={(index) => (
          <Lane lane={lanes.get(index)} head={head} nowMs={nowMs} onJump={onJump} />
        )}
      />
    </div>
  )
}

function Lane({
  lane,
  head,
  nowMs,
  onJump,
}: {
  lane: TimelineLane | undefined
  head: TimelineView
  nowMs: number | null
  onJump: (step: number) => void
}) {
  return (
    <div className="tl-lane" role="listitem">
      <span className="tl-label mono">{lane?.rollout ?? '…'}</span>
      <div className="tl-track">
        {head.gaps.map((g) => (
          <span
            key={g.from_step}
            className="tl-gap"
            style={{
              left: `${at(head, g.from_ms)}%`,
              width: `${at(head, g.to_ms) - at(head, g.from_ms)}%`,
            }}
          />
        ))}
        {head.deadlines.map((d) => (
          <span key={d.step} className="tl-deadline" style={{ left: `${at(head, d.ms)}%` }} />
        ))}
        {nowMs !== null && <span className="tl-now" style={{ left: `${at(head, nowMs)}%` }} />}
        {lane?.bars.map((bar) => (
          <Bar
            key={`${bar.kind}-${bar.step}`}
            bar={bar}
            rollout={lane.rollout}
            head={head}
            onJump={onJump}
          />
        ))}
      </div>
    </div>
  )
}

function Bar({
  bar,
  rollout,
  head,
  onJump,
}: {
  bar: TimelineBar
  rollout: string
  head: TimelineView
  onJump: (step: number) => void
}) {
  const left = at(head, bar.from_ms)
  const width = Math.max(MIN_BAR_PERCENT, at(head, bar.to_ms) - left)
  const what = `${rollout}.a${bar.attempt} ${KIND_LABELS[bar.kind]} ${bar.label}, ${bar.from_ms}–${bar.to_ms} ms${bar.retired ? ', retired' : ''}${bar.continued ? ', continues the restored call' : ''}: go to step ${bar.step}`
  return (
    <button
      type="button"
      className={`tl-bar kind-${bar.kind}${bar.retired ? ' is-retired' : ''}${bar.continued ? ' is-continued' : ''}`}
      style={{ left: `${left}%`, width: `${width}%` }}
      data-testid="timeline-bar"
      data-rollout={rollout}
      data-attempt={bar.attempt}
      data-kind={bar.kind}
      data-retired={bar.retired ? 'true' : undefined}
      data-step={bar.step}
      aria-label={what}
      title={what}
      onClick={() => onJump(bar.step)}
    />
  )
}
