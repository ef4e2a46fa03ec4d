// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import type { StepParticipantView } from '@cutover/core/contracts'
import { ParticipantCards } from './ParticipantCards.tsx'

afterEach(cleanup)

const agent = (tombstones: readonly string[], count: number): StepParticipantView => ({
  id: 'agent',
  kind: 'agent',
  phase: 'n/a',
  admission: 'accepting',
  inflight: 0,
  tombstones,
  tombstone_count: count,
  manifest_digest: null,
  checkpoint_id: null,
})

describe('participant cards', () => {
  it('[cards] a card shows three tombstones and the count of the rest, from the step view’s first few and its count', () => {
    render(<ParticipantCards participants={[agent(['r0.a0', 'r1.a0', 'r2.a0', 'r3.a0'], 9_572)]} />)
    const shown = screen.getByText('r0.a0, r1.a0, r2.a0 +9569')
    expect(shown.getAttribute('title')).toBe('r0.a0, r1.a0, r2.a0, r3.a0 +9568')
  })

  it('[cards] none is a dash', () => {
    render(<ParticipantCards participants={[agent([], 0)]} />)
    const term = screen.getByText('tombstones', { selector: 'dt' })
    expect(term.nextElementSibling?.textContent).toBe('—')
  })
})
