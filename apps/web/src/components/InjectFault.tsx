import { useMemo, useState } from 'react'
import type { Fault, TraceMessage } from '@cutover/core/contracts'
import { faultsAt } from '../lib/faultsAt.ts'

/**
 * "Inject a fault where you stand" (`inject-fault`): the faults that make sense at the current
 * event, and "Run with this fault", which asks for a new run with the fault added to `schedule`.
 * Nothing is shown at an event with nothing to break.
 */
export function InjectFault({
  event,
  writes,
  schedule,
  deadlineMs,
  pending,
  onRun,
  testId = 'inject-fault',
}: {
  event: TraceMessage | null
  /** The run's `directory.write` events (what the fault at a directory write is numbered by). */
  writes: readonly TraceMessage[]
  schedule: readonly Fault[]
  deadlineMs: number
  pending: boolean
  onRun: (faults: readonly Fault[]) => void
  /** `inject-fault` for the current event's control; the Events tab's copy has its own id. */
  testId?: string
}) {
  const offered = useMemo(
    () => (event ? faultsAt(event, writes, { deadlineMs, schedule }) : []),
    [event, writes, deadlineMs, schedule],
  )
  const [picked, setPicked] = useState(0)
  if (offered.length === 0) return null
  const chosen = offered[Math.min(picked, offered.length - 1)]!
  return (
    <form
      className="inject-fault"
      data-testid={testId}
      aria-label="Inject a fault at this event"
      onSubmit={(e) => {
        e.preventDefault()
        onRun([...schedule, chosen.fault])
      }}
    >
      <label>
        Inject here{' '}
        <select
          value={Math.min(picked, offered.length - 1)}
          onChange={(e) => setPicked(Number(e.currentTarget.value))}
        >
          {offered.map((o, i) => (
            <option key={JSON.stringify(o.fault)} value={i} data-kind={o.fault.kind}>
              {o.label}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit" disabled={pending} title={JSON.stringify(chosen.fault)}>
        {pending ? 'Creating run…' : 'Run with this fault'}
      </button>
    </form>
  )
}
