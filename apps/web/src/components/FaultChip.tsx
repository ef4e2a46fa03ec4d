import type { Fault } from '@cutover/core/contracts'

/**
 * One scheduled fault as a chip (`fault-chip`): its kind and rollout, "no effect" when it never
 * fired, and with `onRemove` a × button whose accessible name is `removeLabel` and the fault.
 */
export function FaultChip({
  fault,
  inert = false,
  removeLabel,
  onRemove,
}: {
  fault: Fault
  inert?: boolean
  removeLabel?: string
  onRemove?: () => void
}) {
  const text = JSON.stringify(fault)
  return (
    <span
      className={`fault-chip${inert ? ' is-inert' : ''}`}
      data-testid="fault-chip"
      data-kind={fault.kind}
      title={text}
    >
      {fault.kind}
      {'rollout' in fault ? ` ${String(fault.rollout)}` : ''}
      {inert ? ' · no effect' : ''}
      {onRemove && (
        <button
          type="button"
          className="chip-remove"
          data-testid="remove-fault"
          aria-label={`${removeLabel ?? 'Remove this fault'}: ${text}`}
          title={removeLabel ?? 'Remove this fault'}
          onClick={onRemove}
        />
      )}
    </span>
  )
}
