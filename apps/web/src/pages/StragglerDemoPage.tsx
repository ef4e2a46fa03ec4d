import { useEffect } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import type { RunView, StepView } from '@cutover/core/contracts'
import { createRun, runsQuery } from '../api/queries.ts'
import { ErrorNotice } from '../components/ErrorNotice.tsx'
import { Loading } from '../components/Loading.tsx'
import { RunInspector } from '../components/RunInspector.tsx'
import { narrate } from '../lib/narrate.ts'
import { go } from '../router/navigation.ts'
import type { InspectorView } from '../router/route.ts'

const SCENARIO = 'straggler-retirement'

/** A run of the preset with its own defaults (no custom faults), which the demo may reuse. */
const reusable = (run: RunView) => run.scenario === SCENARIO && run.status !== 'failed' && run.faults.length > 0

/**
 * `/demo/straggler`: a `straggler-retirement` run (an existing one, or a new one) in the
 * inspector, with a plain-language line for every step beside the diagram. The run id goes into
 * the URL so a reload (or a shared link) shows the same run.
 */
export function StragglerDemoPage({ run, view }: { run: string | null; view: InspectorView }) {
  const runs = useQuery({ ...runsQuery(), enabled: run === null })
  const create = useMutation({ mutationFn: () => createRun({ scenario: SCENARIO }) })
  const { mutate, status: createStatus } = create

  useEffect(() => {
    if (run !== null || runs.status !== 'success') return
    const existing = runs.data.runs.find(reusable)
    if (existing) {
      go({ page: 'straggler', run: existing.id, ...view }, { replace: true })
      return
    }
    if (createStatus === 'idle') mutate(undefined, { onSuccess: (created) => go({ page: 'straggler', run: created.id, ...view }, { replace: true }) })
  }, [run, runs.status, runs.data, createStatus, mutate, view])

  let body
  if (run !== null) {
    body = (
      <RunInspector
        runId={run}
        view={view}
        onView={(next, options) => go({ page: 'straggler', run, ...next }, options)}
        aside={(step) => <Narrative step={step} />}
      />
    )
  } else if (runs.status === 'error') body = <ErrorNotice what="list the runs" error={runs.error} onRetry={() => void runs.refetch()} />
  else if (create.status === 'error') body = <ErrorNotice what="start the straggler run" error={create.error} onRetry={() => create.mutate()} />
  else body = <Loading what="the straggler-retirement run" minHeight={600} />

  return (
    <main className="page demo-page">
      <header className="demo-head">
        <h1>Straggler retirement</h1>
        <p className="muted">
          One rollout is still generating when the prepare deadline passes. It is sacrificed — aborted by the model, retired by the agent, its session
          dropped by resources — and fenced everywhere; the checkpoint commits without it and it is redispatched fresh. Later a delayed request from the
          retired attempt arrives and is refused with <code>stale_attempt</code>. Step with ← and →.
        </p>
        {run !== null && (
          <p>
            <button
              type="button"
              className="link-button"
              disabled={create.isPending}
              onClick={() => create.mutate(undefined, { onSuccess: (created) => go({ page: 'straggler', run: created.id, step: null, tab: view.tab, session: null }) })}
            >
              {create.isPending ? 'Starting a fresh run…' : 'Start a fresh demo run'}
            </button>
          </p>
        )}
      </header>
      {body}
    </main>
  )
}

function Narrative({ step }: { step: StepView | undefined }) {
  return (
    <section className="narrative-panel" aria-label="What happens at this step" aria-live="polite">
      <h2 className="small muted">Step {step?.step ?? '…'}</h2>
      <p data-testid="narrative">{step ? narrate(step.event) : 'Loading…'}</p>
    </section>
  )
}
