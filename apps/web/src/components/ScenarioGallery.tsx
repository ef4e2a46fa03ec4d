import { useQuery } from '@tanstack/react-query'
import type { ScenarioInfo } from '@cutover/core/contracts'
import { scenariosQuery } from '../api/queries.ts'
import { useCreateRun } from '../api/useCreateRun.ts'
import { go } from '../router/navigation.ts'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'

/** The presets as cards: what each demonstrates, and a button that runs it with its defaults. */
export function ScenarioGallery() {
  const scenarios = useQuery(scenariosQuery())
  if (scenarios.status === 'pending') return <Loading what="scenarios" minHeight={220} />
  if (scenarios.status === 'error')
    return (
      <ErrorNotice
        what="list the scenarios"
        error={scenarios.error}
        onRetry={() => void scenarios.refetch()}
      />
    )
  return (
    <ul className="gallery" aria-label="Scenarios">
      {scenarios.data.scenarios.map((scenario) => (
        <ScenarioCard key={scenario.name} scenario={scenario} />
      ))}
    </ul>
  )
}

function ScenarioCard({ scenario }: { scenario: ScenarioInfo }) {
  const run = useCreateRun()
  const start = () =>
    run.mutate(
      { scenario: scenario.name },
      {
        onSuccess: (created) => {
          go({ page: 'run', id: created.id, step: null, tab: 'sessions', session: null })
          window.scrollTo(0, 0)
        },
      },
    )
  return (
    <li className="scenario-card" data-testid="scenario-card" data-scenario={scenario.name}>
      <h3>{scenario.title}</h3>
      <p className="mono small muted">{scenario.name}</p>
      <p className="narrative">{scenario.narrative}</p>
      <p className="small muted">
        {scenario.config.rollouts} rollouts · deadline {scenario.config.deadline_ms} ms ·{' '}
        {scenario.faults.length === 0 ? 'no faults' : scenario.faults.map((f) => f.kind).join(', ')}
      </p>
      <button
        type="button"
        className="primary"
        onClick={start}
        disabled={run.isPending}
        aria-label={`Run ${scenario.title}`}
      >
        {run.isPending ? 'Starting…' : 'Run'}
      </button>
      {run.isError && <ErrorNotice what="start the run" error={run.error} />}
    </li>
  )
}
