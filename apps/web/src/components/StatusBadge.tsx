import type { RunStatus } from '@cutover/core/contracts'

/** A run's status as a coloured badge. */
export function StatusBadge({ status }: { status: RunStatus }) {
  return <span className={`badge status-${status}`}>{status}</span>
}
