import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { RunView, ScenarioInfo, StepView } from '@cutover/core/contracts'
import { runsQuery, scenariosQuery } from '../api/queries.ts'
import { useCreateRun } from '../api/useCreateRun.ts'
import { ErrorNotice } from '../components/ErrorNotice.tsx'
import { Loading } from '../components/Loading.tsx'
import { RunInspector } from '../components/RunInspector.tsx'
import { narrate } from '../lib/narrate.ts'
import { go } from '../router/navigation.ts'
import type { InspectorView } from '../router/route.ts'

const SCENARIO = 'straggler-retirement'

/**
 * A run of the preset exactly as configured (fleet size, deadline, faults), which the demo may
 * reuse.
 */
const reusable = (run: RunView, preset: ScenarioInfo) =>
  run.scenario === SCENARIO &&
  run.status !== 'failed' &&
  run.rollouts === preset.config.rollouts &&
  run.deadline_ms === preset.config.deadline_ms &&
  JSON.stringify(run.faults) === JSON.stringify(preset.faults)

/**
 * `/demo/straggler`: a `straggler-retirement` run (an existing one, or a new one) in the
 * inspector, with a plain-language line for every step beside the diagram. The run id goes into
 * the URL so a reload (or a shared link) shows the same run.
 */
export function StragglerDemoPage({ run, view }: { run: string | null; view: InspectorView }) {
  const runs = useQuery({ ...runsQuery(), enabled: run === null })
  const preset = useQuery({ ...scenariosQuery(), enabled: run === null }).data?.scenarios.find(
    (s) => s.name === SCENARIO,
  )
  const create = useCreateRun()
  const { mutate, status: createStatus } = create

  useEffect(() => {
    if (run !== null || runs.status !== 'success' || preset === undefined) return
    // newest first, so the demo shows the most recent matching run
    const existing = [...runs.data.runs]
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .find((r) => reusable(r, preset))
    if (existing) {
      // a finished run opens at its start, ready to be stepped through with its narrative
      go(
        {
          page: 'straggler',
          run: existing.id,
          ...view,
          step: view.step ?? (existing.status === 'complete' ? 0 : null),
        },
        { replace: true },
      )
      return
    }
    if (createStatus === 'idle')
      mutate(
        { scenario: SCENARIO },
        {
          onSuccess: (created) =>
            go({ page: 'straggler', run: created.id, ...view }, { replace: true }),
        },
      )
  }, [run, runs.status, runs.data, preset, createStatus, mutate, view])

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
  } else if (runs.status === 'error')
    body = (
      <ErrorNotice what="list the runs" error={runs.error} onRetry={() => void runs.refetch()} />
    )
  else if (create.status === 'error')
    body = (
      <ErrorNotice
        what="start the straggler run"
        error={create.error}
        onRetry={() => create.mutate({ scenario: SCENARIO })}
      />
    )
  else body = <Loading what="the straggler-retirement run" minHeight={600} />

  return (
    <main className="page demo-page">
      <header className="demo-head">
        <div className="demo-head-line">
          <h1>Straggler retirement</h1>
          {run !== null && (
            <button
              type="button"
              className="link-button"
              disabled={create.isPending}
              onClick={() =>
                create.mutate(
                  { scenario: SCENARIO },
                  {
                    // a fresh run opens at its first message, not at the live edge
                    onSuccess: (created) =>
                      go({
                        page: 'straggler',
                        run: created.id,
                        step: 1,
                        tab: view.tab,
                        session: null,
                      }),
                  },
                )
              }
            >
              {create.isPending ? 'Starting a fresh run…' : 'Start a fresh demo run'}
            </button>
          )}
        </div>
        <p className="muted">
          One rollout is still generating when the prepare deadline passes. It is sacrificed —
          aborted by the model, retired by the agent, its session dropped by resources — and fenced
          everywhere; the checkpoint commits without it and it is redispatched fresh. Later a
          delayed request from the retired attempt arrives and is refused with{' '}
          <code>stale_attempt</code>. Step with ← and →.
        </p>
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
