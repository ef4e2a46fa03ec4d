import { useQuery } from '@tanstack/react-query'
import { sessionQuery } from '../api/queries.ts'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Empty } from './Empty.tsx'
import { GenerationCuts } from './GenerationCuts.tsx'
import { JsonTree } from './JsonTree.tsx'
import { Loading } from './Loading.tsx'
import { RowChangeLinks } from './RowChangeLinks.tsx'
import { StatePictureView } from './StatePictureView.tsx'

/**
 * One session at this step beside its prepare snapshot (changed values marked), and its model
 * calls' generation cuts.
 */
export function SessionDetail({
  runId,
  sessionKey,
  step,
  onOpenTables,
  onSeek,
}: {
  runId: string
  sessionKey: string
  step: number
  onOpenTables: () => void
  onSeek: (step: number) => void
}) {
  const detail = useQuery({
    ...sessionQuery(runId, sessionKey, step),
    placeholderData: (previous) => (previous?.session.key === sessionKey ? previous : undefined),
  })
  if (detail.status === 'pending') return <Loading what={`session ${sessionKey}`} minHeight={200} />
  if (detail.status === 'error')
    return (
      <ErrorNotice
        what={`load session ${sessionKey}`}
        error={detail.error}
        onRetry={() => void detail.refetch()}
      />
    )
  const { session, state, prepare } = detail.data
  return (
    <section className="session-detail" aria-label={`Session ${session.key}`}>
      <header className="panel-head">
        <h3 className="mono">{session.key}</h3>
        <span className={`state-chip state-${session.state}`}>{session.state}</span>
        <span className="muted">
          {session.environment} · revision {session.revision ?? '—'} · {session.summary}
          {session.environment === 'workplace' ? ' (vs the base tables)' : ''}
        </span>
        {session.environment === 'workplace' && (
          <button type="button" className="link-button" onClick={onOpenTables}>
            Open its tables →
          </button>
        )}
      </header>
      {session.environment === 'workplace' && (
        <RowChangeLinks
          runId={runId}
          sessionKey={session.key}
          step={detail.data.step}
          onSeek={onSeek}
        />
      )}
      <GenerationCuts cuts={detail.data.generation_cuts ?? []} />
      <div className="side-by-side">
        <div>
          <h4>At step {detail.data.step}</h4>
          {state === null ? (
            <Empty>The session holds no state at this step.</Empty>
          ) : (
            <>
              <StatePictureView state={state} />
              <JsonTree value={state} compare={prepare ?? undefined} />
            </>
          )}
        </div>
        <div>
          <h4>At prepare</h4>
          {prepare === null ? (
            <Empty>Not exported yet: no prepare snapshot at this step.</Empty>
          ) : (
            <>
              <StatePictureView state={prepare} />
              {/* differences are marked on both sides */}
              <JsonTree value={prepare} compare={state ?? undefined} />
            </>
          )}
        </div>
      </div>
    </section>
  )
}
