import type { SimulationResult } from '@cutover/core'
import {
  compareParticipants,
  diagramParticipant,
  diagramWindow,
  renderSequenceDiagram,
} from '@cutover/core'
import type {
  ParticipantView,
  StepParticipantView,
  StepView,
  TracePhase,
} from '@cutover/core/contracts'

/**
 * What `GET /api/runs/:id/steps/:n` asks for: a step of a run whose first `total` events are known.
 */
export interface StepViewQuery {
  readonly step: number
  /** The events the request saw (a running run's edge when it arrived); the view is of these. */
  readonly total: number
  readonly collapsed: readonly TracePhase[]
  /** The diagram window's width; the default when undefined. */
  readonly size?: number | undefined
}

/**
 * The tombstones a participant card of the step view carries (the card shows three and the count).
 */
export const CARD_TOMBSTONES = 20

/** A card with its first CARD_TOMBSTONES tombstones and their count. */
const cardOf = (p: ParticipantView): StepParticipantView => ({
  ...p,
  tombstones: p.tombstones.slice(0, CARD_TOMBSTONES),
  tombstone_count: p.tombstones.length,
})

/**
 * The cards in the diagram's lifeline order (controller, agent, policy model, workers, token store,
 * resources, directory), whatever order the run's kind lists its participants in.
 */
export function inLifelineOrder<T extends { readonly id: string }>(cards: readonly T[]): T[] {
  return cards
    .map((card) => ({ card, rank: diagramParticipant(card.id) }))
    .sort((a, b) => compareParticipants(a.rank, b.rank))
    .map(({ card }) => card)
}

type StepViewSource = Pick<SimulationResult, 'events' | 'invariantsAt' | 'participantsAt'>

/**
 * The step view of docs/http-api.md: the event, participants and invariants at `step`, with the
 * diagram window around it. The session rows are a view of their own (`sessionsView`): at 10,000
 * rollouts they were 3.3 MB of every step view, and only the Sessions and Tables tabs show them;
 * each card carries its first tombstones and their count, not all of them. `result` may have run
 * past `total` (a worker ahead of the request): the view is the same, because the window and every
 * per-step view stop at `step` ≤ `total`.
 */
export function stepView(result: StepViewSource, query: StepViewQuery): StepView {
  const { step, total } = query
  const window = diagramWindow(total, step, query.size)
  const diagram = renderSequenceDiagram(result.events, {
    highlight: step,
    window,
    collapsed: [...query.collapsed],
    lifelines: 'trace',
  })
  const event = step > 0 ? (result.events[step - 1] ?? null) : null
  const { invariants, failures } = result.invariantsAt(step)
  return {
    step,
    total,
    event,
    phase: event?.phase ?? null,
    participants: inLifelineOrder(result.participantsAt(step)).map(cardOf),
    invariants,
    failures,
    mermaid: diagram.source,
    window: diagram.window,
    diagram: {
      source: diagram.plain,
      highlight: diagram.highlightIndex,
      steps: diagram.messageSteps,
    },
  }
}
