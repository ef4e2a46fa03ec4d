import { useCallback, useMemo, useState } from 'react'
import type { LineageView } from '@cutover/core/contracts'
import { LANE, lineageLayout } from '../lib/lineageLayout.ts'
import { visibleRange } from './VirtualList.tsx'
import { cutNote } from './LineageTree.tsx'
import type { AttemptStatus } from './LineageTree.tsx'

type Rollout = LineageView['rollouts'][number]

const HEIGHT = 440

/**
 * The lineage drawn as a graph, one lane per rollout: each attempt a box of its model calls
 * (retired and fenced attempts struck through in red), parent links between calls, and the
 * restored-parent relay as an arc from N's last committed call to N+1's first call, a call cut at a
 * token boundary marked with its token count and a dashed cut edge to the call of N+1 that
 * continues it. Only the lanes in view are drawn, so 10,000 rollouts scroll like 10. Clicking a
 * call goes to its step.
 */
export function LineageGraph({
  rollouts,
  statusNote,
  onSeek,
}: {
  rollouts: readonly Rollout[]
  statusNote: { readonly [S in AttemptStatus]: string }
  onSeek?: (step: number) => void
}) {
  const [scrollTop, setScrollTop] = useState(0)
  const { start, end } = visibleRange(scrollTop, HEIGHT, LANE.height, rollouts.length)
  const labelOf = useCallback(
    (attempt: Rollout['attempts'][number]) => `a${attempt.attempt} · ${statusNote[attempt.status]}`,
    [statusNote],
  )
  const lanes = useMemo(
    () =>
      rollouts
        .slice(start, end)
        .map((rollout) => ({ rollout, layout: lineageLayout(rollout, labelOf) })),
    [rollouts, start, end, labelOf],
  )
  const width = Math.max(480, ...lanes.map((l) => l.layout.width))
  const y0 = start * LANE.height
  return (
    <div
      className="lineage-graph-box"
      tabIndex={0}
      role="region"
      aria-label="Lineage graph (scrolls by rollout)"
      style={{ height: Math.min(HEIGHT, rollouts.length * LANE.height + 4) }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: rollouts.length * LANE.height, position: 'relative', width }}>
        <svg
          data-testid="lineage-graph"
          role="group"
          aria-label={`Lineage graph, rollouts ${start + 1}–${end} of ${rollouts.length}`}
          width={width}
          height={(end - start) * LANE.height}
          style={{ position: 'absolute', top: y0, left: 0 }}
        >
          <defs>
            <marker
              id="relay-arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M 0 0 L 10 5 L 0 10 z" className="relay-arrow" />
            </marker>
            <marker
              id="cut-arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M 0 0 L 10 5 L 0 10 z" className="cut-arrow" />
            </marker>
          </defs>
          {lanes.map(({ rollout, layout }, i) => (
            <g
              key={rollout.rollout_id}
              transform={`translate(0 ${i * LANE.height})`}
              data-rollout={rollout.rollout_id}
              role="group"
              aria-label={`rollout ${rollout.rollout_id} (${rollout.environment})`}
            >
              <line
                x1={0}
                x2={width}
                y1={LANE.height - 0.5}
                y2={LANE.height - 0.5}
                className="lane-rule"
              />
              <text x={6} y={LANE.callY + 4} className="lane-label">
                {rollout.rollout_id}
              </text>
              <text x={6} y={LANE.callY - 14} className="lane-env">
                {rollout.environment}
              </text>
              {layout.attempts.map(({ attempt, x, width: w, calls }) => (
                <g
                  key={attempt.attempt}
                  className={`graph-attempt attempt-${attempt.status}`}
                  data-attempt={`${rollout.rollout_id}.a${attempt.attempt}`}
                  data-status={attempt.status}
                  role="group"
                  aria-label={`${rollout.rollout_id}.a${attempt.attempt}: ${attempt.status}`}
                >
                  <rect
                    x={x}
                    y={LANE.callY - 13}
                    width={w}
                    height={26}
                    rx={6}
                    className="attempt-box"
                  />
                  <text x={x} y={LANE.callY - 18} className="attempt-label">
                    {labelOf(attempt)}
                  </text>
                  {calls.map(({ call, x: cx }) => {
                    const note = cutNote(call)
                    return (
                      <g key={call.model_call_id}>
                        <circle
                          cx={cx}
                          cy={LANE.callY}
                          r={LANE.radius}
                          className={`call-node${call.relay ? ' is-relay' : ''}${call.generation_cut ? ' is-cut' : ''}`}
                          onClick={onSeek ? () => onSeek(call.step) : undefined}
                          onKeyDown={
                            onSeek
                              ? (event) => {
                                  if (event.key !== 'Enter' && event.key !== ' ') return
                                  event.preventDefault()
                                  onSeek(call.step)
                                }
                              : undefined
                          }
                          role={onSeek ? 'button' : 'img'}
                          tabIndex={onSeek ? 0 : undefined}
                          aria-label={`model call ${call.model_call_id} of ${rollout.rollout_id}.a${attempt.attempt}${call.relay ? ', relay from the restored parent' : ''}${note ? `, ${note}` : ''}${onSeek ? `: go to step ${call.step}` : ''}`}
                          data-call={call.model_call_id}
                        >
                          <title>{`${call.model_call_id}${call.parent_call_id ? ` ← ${call.parent_call_id}` : ''}${note ? ` · ${note}` : ''}${onSeek ? ` · step ${call.step}` : ''}`}</title>
                        </circle>
                        {call.generation_cut?.prefix_token_count !== undefined && (
                          <text
                            x={cx}
                            y={LANE.callY + LANE.radius + 9}
                            className="cut-label"
                            textAnchor="middle"
                          >
                            ✂{call.generation_cut.prefix_token_count}
                          </text>
                        )}
                      </g>
                    )
                  })}
                </g>
              ))}
              {layout.edges.map((edge, k) =>
                edge.kind === 'parent' ? (
                  <line
                    key={k}
                    x1={edge.from + LANE.radius}
                    x2={edge.to - LANE.radius}
                    y1={LANE.callY}
                    y2={LANE.callY}
                    className="parent-edge"
                  />
                ) : edge.kind === 'cut' ? (
                  <path
                    key={k}
                    data-testid="cut-edge"
                    d={`M ${edge.from + LANE.radius} ${LANE.callY} L ${edge.to - LANE.radius - 1} ${LANE.callY}`}
                    className="cut-edge"
                    markerEnd="url(#cut-arrow)"
                  >
                    <title>{edge.label}</title>
                  </path>
                ) : (
                  <path
                    key={k}
                    data-testid="relay-edge"
                    d={`M ${edge.from} ${LANE.callY - LANE.radius} C ${edge.from} ${LANE.callY - 34}, ${edge.to} ${LANE.callY - 34}, ${edge.to} ${LANE.callY - LANE.radius - 1}`}
                    className="relay-edge"
                    markerEnd="url(#relay-arrow)"
                  >
                    <title>{`relay from the restored parent: ${edge.label}`}</title>
                  </path>
                ),
              )}
            </g>
          ))}
        </svg>
      </div>
    </div>
  )
}
