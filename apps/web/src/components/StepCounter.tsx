/** `step n / total` (docs/protocol.md §12.1, docs/inspector.md): the exact text scripts read. */
export function StepCounter({ step, total }: { step: number; total: number }) {
  return (
    <output className="step-counter" data-testid="step-counter" aria-live="off">
      step {step} / {total}
    </output>
  )
}
