import { describe, expect, it } from 'vitest'
import type { ParticipantView } from '@cutover/core/contracts'
import { CARD_TOMBSTONES, stepView } from './stepView.ts'

const card = (id: ParticipantView['id'], tombstones: number): ParticipantView => ({
  id,
  kind: 'agent',
  phase: 'n/a',
  admission: 'accepting',
  inflight: 0,
  tombstones: Array.from({ length: tombstones }, (_, i) => `r${String(i).padStart(5, '0')}.a0`),
  manifest_digest: null,
  checkpoint_id: null,
})

describe('step view', () => {
  it('[api] a card carries its first tombstones in order and their count, cards in lifeline order; the view carries no session rows', () => {
    const source = {
      events: [],
      invariantsAt: () => ({ invariants: {} as never, failures: [] }),
      participantsAt: () => [
        card('agent', 9_572),
        card('controller', 0),
        card('policy_model', CARD_TOMBSTONES),
      ],
    }
    const view = stepView(source, { step: 0, total: 0, collapsed: [] })
    // the cards in the diagram's lifeline order, whatever order the run lists them in
    expect(view.participants.map((p) => [p.id, p.tombstones.length, p.tombstone_count])).toEqual([
      ['controller', 0, 0],
      ['agent', CARD_TOMBSTONES, 9_572],
      ['policy_model', CARD_TOMBSTONES, CARD_TOMBSTONES],
    ])
    expect(view.participants[1]?.tombstones.slice(0, 2)).toEqual(['r00000.a0', 'r00001.a0'])
    expect(view).not.toHaveProperty('sessions')
  })
})
