import { useEffect, useState } from 'react'

/**
 * How long the shown step stays put before its session rows are asked for. Stepping through a
 * 10,000-rollout run asks for a step view per key press; the rows are asked only for the step the
 * user stops at, so they never queue in front of the next step's diagram.
 */
export const SESSION_ROWS_SETTLE_MS = 200

/**
 * The step whose session rows to ask for: the first step at once (and another run's at once), a
 * later one once it has been shown for SESSION_ROWS_SETTLE_MS.
 */
export function useSettledStep(runId: string, step: number): number {
  const [asked, setAsked] = useState({ runId, step })
  // another run is asked at once
  if (asked.runId !== runId) setAsked({ runId, step })
  useEffect(() => {
    if (asked.step === step) return
    const timer = setTimeout(() => setAsked({ runId, step }), SESSION_ROWS_SETTLE_MS)
    return () => clearTimeout(timer)
  }, [asked.step, runId, step])
  return asked.runId === runId ? asked.step : step
}
