import type { Fault } from '@cutover/core/contracts'
import { faultText } from '../lib/faultText.ts'

/**
 * One scheduled fault as a chip (`fault-chip`): its kind and rollout, "no effect" when it never
 * fired, and with `onRemove` a × button whose accessible name is `removeLabel` and the fault.
 */
export function FaultChip({
  fault,
  inert = false,
  removeLabel,
  onRemove,
  rollouts,
}: {
  fault: Fault
  /** The run's fleet size: a rollout given by index is named by its id. */
  rollouts?: number
  inert?: boolean
  removeLabel?: string
  onRemove?: () => void
}) {
  const text = JSON.stringify(fault)
  const words = faultText(fault, rollouts)
  return (
    <span
      className={`fault-chip${inert ? ' is-inert' : ''}`}
      data-testid="fault-chip"
      data-kind={fault.kind}
      title={text}
    >
      {words}
      {inert ? ' · no effect' : ''}
      {onRemove && (
        <button
          type="button"
          className="chip-remove"
          data-testid="remove-fault"
          aria-label={`${removeLabel ?? 'Remove this fault'}: ${words}`}
          title={removeLabel ?? 'Remove this fault'}
          onClick={onRemove}
        />
      )}
    </span>
  )
}
