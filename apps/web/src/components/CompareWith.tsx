import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { runsQuery } from '../api/queries.ts'
import { go } from '../router/navigation.ts'

/** "Compare with…" on a run page: pick another finished run and open `/diff?a=<this>&b=<that>`. */
export function CompareWith({ runId }: { runId: string }) {
  const runs = useQuery(runsQuery())
  const all = runs.data?.runs ?? []
  // a run made from another ("Run with this fault") is compared with its parent by default
  const parent = all.find((r) => r.id === runId)?.parent
  const others = all
    .filter((r) => r.id !== runId && r.status === 'complete')
    .sort((a, b) => Number(b.id === parent) - Number(a.id === parent))
  const [other, setOther] = useState('')
  const chosen = others.some((r) => r.id === other) ? other : (others[0]?.id ?? '')
  return (
    <form
      className="compare-with"
      aria-label="Compare with another run"
      onSubmit={(event) => {
        event.preventDefault()
        if (chosen) go({ page: 'diff', a: runId, b: chosen })
      }}
    >
      <label>
        Compare with…{' '}
        <select
          aria-label="Compare with this run"
          value={chosen}
          onChange={(e) => setOther(e.currentTarget.value)}
          disabled={others.length === 0}
        >
          {others.length === 0 && <option value="">no other finished run</option>}
          {others.map((r) => (
            <option key={r.id} value={r.id}>
              {r.id === parent ? 'parent: ' : ''}
              {r.scenario} · seed {r.seed} · {r.rollouts} rollouts · {r.id}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!chosen}>
        Compare
      </button>
    </form>
  )
}
