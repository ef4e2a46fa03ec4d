import { useEffect, useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { sessionsQuery } from './queries.ts'

/**
 * How long the shown step stays put before its rows are asked for. Stepping through a 10,000-rollout
 * run asks for a step view per key press; its 18,766 session rows (≈ 3.3 MB) are fetched only for the
 * step the user stops at, so they never queue in front of the next step's diagram.
 */
export const SESSION_ROWS_SETTLE_MS = 200

/**
 * The session rows of `step` (`GET /api/runs/:id/sessions?step=n`). The first step is asked at
 * once; a later one once it has been shown for SESSION_ROWS_SETTLE_MS. Meanwhile, and while the
 * next rows load, the previous step's rows stay (no flicker): `data.step` says which step they are.
 */
export function useSessionRows(runId: string, step: number) {
  const [asked, setAsked] = useState({ runId, step })
  // another run is asked at once
  if (asked.runId !== runId) setAsked({ runId, step })
  useEffect(() => {
    if (asked.step === step) return
    const timer = setTimeout(() => setAsked({ runId, step }), SESSION_ROWS_SETTLE_MS)
    return () => clearTimeout(timer)
  }, [asked.step, runId, step])
  return useQuery({ ...sessionsQuery(runId, asked.step), placeholderData: keepPreviousData })
}
