import type { LineageView } from '@cutover/core/contracts'

type Rollout = LineageView['rollouts'][number]
type Attempt = Rollout['attempts'][number]
type Call = Attempt['calls'][number]

/** Geometry of the lineage graph's lanes (one rollout per lane, attempts left to right). */
export const LANE = {
  height: 56,
  labelWidth: 96,
  attemptGap: 36,
  callGap: 34,
  pad: 14,
  callY: 38,
  radius: 7,
} as const

export interface PlacedCall {
  readonly call: Call
  readonly x: number
}

export interface PlacedAttempt {
  readonly attempt: Attempt
  readonly x: number
  readonly width: number
  readonly calls: readonly PlacedCall[]
}

/**
 * A drawn edge: `parent` within an attempt, `relay` from N's restored parent call to N+1's first
 * call, `cut` from a call cut at a token boundary in N to the call of N+1 that continues it.
 */
export interface LaneEdge {
  readonly kind: 'parent' | 'relay' | 'cut'
  readonly from: number
  readonly to: number
  readonly label: string
}

export interface LaneLayout {
  readonly attempts: readonly PlacedAttempt[]
  readonly edges: readonly LaneEdge[]
  readonly width: number
}

/**
 * Lays one rollout out as a lane: each attempt a box of its calls in order, parent links as short
 * edges, and each relay call's link back to its parent in an earlier attempt as a `relay` edge
 * (drawn as an arc over the boxes). A parent the lane does not hold draws no edge. Each box is at
 * least as wide as `labelOf` its attempt. Pure.
 */
export function lineageLayout(
  rollout: Rollout,
  labelOf: (attempt: Attempt) => string = () => '',
): LaneLayout {
  const attempts: PlacedAttempt[] = []
  let x = LANE.labelWidth
  for (const attempt of rollout.attempts) {
    // wide enough for its label (about 6 px a character at the label's size)
    const width = Math.max(
      Math.max(1, attempt.calls.length) * LANE.callGap + LANE.pad,
      labelOf(attempt).length * 6 + 8,
    )
    const calls = attempt.calls.map((call, i) => ({
      call,
      x: x + LANE.pad + i * LANE.callGap + LANE.radius,
    }))
    attempts.push({ attempt, x, width, calls })
    x += width + LANE.attemptGap
  }
  // Call ids are unique within an attempt, not across a restore: a parent is looked up in the
  // calls before it in its own attempt, a relay's parent in the earlier attempts, latest first.
  const edges: LaneEdge[] = []
  attempts.forEach((placed, k) => {
    placed.calls.forEach(({ call, x: to }, i) => {
      if (call.parent_call_id === null) return
      const find = (calls: readonly PlacedCall[]) =>
        calls.find((c) => c.call.model_call_id === call.parent_call_id)?.x
      let from = call.relay ? undefined : find(placed.calls.slice(0, i))
      for (let j = k - 1; from === undefined && j >= 0; j--)
        from = find((attempts[j] as PlacedAttempt).calls)
      if (from === undefined) return
      edges.push({
        kind: call.relay ? 'relay' : 'parent',
        from,
        to,
        label: `a${placed.attempt.attempt} ${call.parent_call_id} → ${call.model_call_id}`,
      })
    })
    // a continuation names the cut call it continues: look for it in the earlier attempts, latest
    // first
    placed.calls.forEach(({ call, x: to }) => {
      const cut = call.continues_cut
      if (cut === undefined) return
      let from: number | undefined
      for (let j = k - 1; from === undefined && j >= 0; j--)
        from = (attempts[j] as PlacedAttempt).calls.find(
          (c) => c.call.model_call_id === cut.model_call_id,
        )?.x
      if (from === undefined) return
      edges.push({
        kind: 'cut',
        from,
        to,
        label: `${cut.model_call_id} cut at token ${cut.prefix_token_count}, continued by a${placed.attempt.attempt} ${call.model_call_id} (${cut.prefix_delivery})`,
      })
    })
  })
  return { attempts, edges, width: x }
}
