import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { stepQuery } from '../api/queries.ts'
import { narrate } from '../lib/narrate.ts'
import type { StragglerFate } from '../lib/stragglerFate.ts'
import { Link } from '../router/Link.tsx'
import { routeHref } from '../router/route.ts'
import { ErrorNotice } from './ErrorNotice.tsx'
import { LineageTab } from './LineageTab.tsx'
import { Loading } from './Loading.tsx'
import { MermaidDiagram } from './MermaidDiagram.tsx'

/**
 * The lifelines a half-width pane folds into "others" when it opens: the cut is told by the
 * controller, agent, policy model, generation worker and token store (the menu shows the rest).
 */
const DEMO_FOLDED = [
  'resources_blackjack',
  'resources_counter',
  'resources_workplace',
  'directory',
  'rollouts',
]

/** What a cut mode does to the straggler, in one sentence a person reads beside the diagram. */
export function fateText(fate: StragglerFate): string {
  switch (fate.kind) {
    case 'pending':
      return 'The straggler has not met the checkpoint yet.'
    case 'retired':
      return `${fate.rollout} is still generating at the prepare deadline: it is sacrificed at step ${fate.step} — aborted, retired, fenced — and everything it generated is thrown away${fate.redispatched === null ? '' : `; its next attempt starts over from its input at step ${fate.redispatched}`}.`
    case 'cut': {
      const at = fate.tokens === null ? 'a token boundary' : `token ${fate.tokens}`
      const then =
        fate.continued === null
          ? ''
          : `; after restore it continues from token ${fate.tokens ?? 'k'}${fate.continuedAttempt === null ? '' : ` under attempt ${fate.continuedAttempt}`} at step ${fate.continued}, and ends as if never interrupted`
      return `${fate.rollout} is still generating at the prepare deadline: at step ${fate.step} its call${fate.call === null ? '' : ` ${fate.call}`} is cut at ${at} — the prefix is durable in the token store before the worker acknowledges, and its response is fenced${then}.`
    }
  }
}

/**
 * One side of the generation-cut demo: a run at the demo's shared cursor (clamped to the run's own
 * length), with its diagram, the current event in words, the straggler's fate and its lineage.
 */
export function DemoRunPanel({
  run,
  events,
  cursor,
  mode,
  fate,
  onSeek,
}: {
  run: RunView
  events: readonly TraceEvent[]
  /** The demo's shared step; this run shows `min(cursor, its total)`. */
  cursor: number
  mode: 'whole-request' | 'generation-safe'
  fate: StragglerFate
  onSeek: (step: number) => void
}) {
  const total = events.length
  const step = Math.min(cursor, total)
  const view = useQuery({
    ...stepQuery(run.id, step),
    // a queued run has no step views yet (409 run_not_started)
    enabled: run.queue_position === undefined,
    placeholderData: keepPreviousData,
  })
  const data = view.data
  const session = fate.kind === 'pending' ? null : `${fate.rollout}.a0`
  return (
    <section
      className={`demo-panel mode-${mode}`}
      aria-label={`${mode} run`}
      data-testid="demo-panel"
      data-mode={mode}
      data-run={run.id}
      data-step={data?.step}
    >
      <header className="panel-head demo-panel-head">
        <h2>
          <span className={`mode-chip mode-${mode}`}>{mode}</span>{' '}
          <span className="mono small">{run.scenario}</span>
        </h2>
        <span className="mono small" data-testid="panel-step">
          step {step} / {total}
        </span>
        <Link
          className="small"
          href={routeHref({ page: 'run', id: run.id, step, tab: 'sessions', session })}
        >
          open in the inspector →
        </Link>
      </header>
      <p className="fate" data-testid="straggler-fate" data-fate={fate.kind}>
        {fateText(fate)}
      </p>
      <div className="diagram-pane">
        {data ? (
          <MermaidDiagram
            source={data.diagram.source}
            highlight={data.diagram.highlight}
            defaultHidden={DEMO_FOLDED}
            scope={mode}
            onOpen={(index) => {
              const at = data.diagram.steps[index]
              if (at !== undefined) onSeek(at)
            }}
            label={`${mode} sequence diagram, steps ${data.window.from}–${data.window.to}`}
          />
        ) : view.status === 'error' ? (
          <ErrorNotice
            what={`load step ${step} of ${run.id}`}
            error={view.error}
            onRetry={() => void view.refetch()}
          />
        ) : (
          <Loading what="the diagram" minHeight={480} />
        )}
      </div>
      <p className="narrative-line" data-testid="narrative" aria-live="polite">
        {cursor > total && (
          <span className="muted">(This run ended at step {total}; its last step:) </span>
        )}
        {data ? narrate(data.event) : '…'}
      </p>
      <LineageTab
        key={session ?? ''}
        runId={run.id}
        step={step}
        onSeek={onSeek}
        session={session}
        initialView="list"
        scope={mode}
      />
    </section>
  )
}
