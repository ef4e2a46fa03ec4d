import type { RunStatus } from '@cutover/core/contracts'

/**
 * A run's status as a coloured badge; a running run still waiting for a simulation slot says so,
 * and a damaged one says why on hover.
 */
export function StatusBadge({
  status,
  queuePosition,
  reason,
}: {
  /** A RunStatus, or a status another part of the server adds (`damaged`). */
  status: RunStatus | (string & {})
  queuePosition?: number | undefined
  reason?: string | undefined
}) {
  if (status === 'running' && queuePosition !== undefined) {
    return (
      <span
        className="badge status-queued"
        title="Waiting for a free simulation slot (the server runs a bounded number at once)"
      >
        queued #{queuePosition}
      </span>
    )
  }
  return (
    <span className={`badge status-${status}`} title={status === 'damaged' ? reason : undefined}>
      {status}
    </span>
  )
}
