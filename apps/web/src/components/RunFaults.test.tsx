// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { RunFaults } from './RunFaults.tsx'

afterEach(cleanup)

describe('run faults', () => {
  it('[faults] each fault is a chip; one that never fired is marked and its reason listed', () => {
    const crash = { kind: 'crash_after_write' as const, k: 999 }
    render(
      <RunFaults
        run={{
          status: 'complete',
          bug: 'relay-applied-twice',
          faults: [{ kind: 'straggler', rollout: 'r0', extra_ms: 400 }, crash],
          inert_faults: [
            {
              fault: crash,
              reason: 'this fault had no effect: the commit wrote fewer than 999 files',
            },
          ],
        }}
      />,
    )
    const chips = screen.getAllByTestId('fault-chip')
    expect(chips.map((c) => c.textContent)).toEqual([
      'straggler r0 +400 ms',
      'crash at write 999 · no effect',
    ])
    expect(screen.getByTestId('inert-fault').textContent).toContain(
      'this fault had no effect: the commit wrote fewer than 999 files',
    )
    expect(screen.getByTestId('bug-badge').textContent).toBe('bug: relay-applied-twice')
  })
  it('[inject] editable chips: removing one asks for the schedule without it', () => {
    const onRemove = vi.fn()
    const straggler = { kind: 'straggler' as const, rollout: 'r0', extra_ms: 400 }
    const stale = {
      kind: 'stale_request' as const,
      rollout: 'r0',
      participant: 'policy_model' as const,
    }
    render(
      <RunFaults
        run={{ status: 'complete', faults: [straggler, stale], inert_faults: [] }}
        onRemove={onRemove}
      />,
    )
    fireEvent.click(screen.getAllByTestId('remove-fault')[0]!)
    expect(onRemove).toHaveBeenCalledWith([stale])
  })
})
