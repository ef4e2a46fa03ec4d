import { useQuery } from '@tanstack/react-query'
import type {
  ParticipantView,
  RunDiffView,
  SessionRow,
  StateDifference,
  TraceEvent,
} from '@cutover/core/contracts'
import { differingFields } from '@cutover/core/contracts'
import { runDiffQuery } from '../api/diffQueries.ts'
import { runsQuery } from '../api/queries.ts'
import { DiffEventCard } from '../components/DiffEventCard.tsx'
import { Empty } from '../components/Empty.tsx'
import { ErrorNotice } from '../components/ErrorNotice.tsx'
import { Loading } from '../components/Loading.tsx'
import { Link } from '../router/Link.tsx'
import { go } from '../router/navigation.ts'

const participantText = (p: ParticipantView | null) =>
  p === null
    ? '—'
    : `${p.phase} · ${p.admission} · ${p.inflight} in flight${p.tombstones.length > 0 ? ` · tombstones ${p.tombstones.join(', ')}` : ''}`
const sessionText = (s: SessionRow | null) =>
  s === null ? '—' : `${s.state} · rev ${s.revision ?? '—'} · ${s.summary}`
const eventLine = (e: TraceEvent) =>
  `${e.step} ${e.phase} ${e.from} → ${e.to} ${e.type}${e.outcome === 'ok' ? '' : ` [${e.outcome}]`}`

function StateTable<T>({
  title,
  rows,
  text,
}: {
  title: string
  rows: readonly StateDifference<T>[]
  text: (item: T | null) => string
}) {
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <Empty>No difference.</Empty>
      ) : (
        <table className="data-table diff-states">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-id={r.id}>
                <td className="mono">{r.id}</td>
                <td>{text(r.a)}</td>
                <td>{text(r.b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function DiffBody({ diff }: { diff: RunDiffView }) {
  const first = diff.first_divergence
  return (
    <div data-testid="diff-view" data-identical={diff.identical}>
      <p className={`inv-summary ${diff.identical ? 'is-pass' : 'is-fail'}`}>
        {diff.identical
          ? `Identical: ${diff.run_a.events} events, event for event.`
          : `${diff.differences} difference${diff.differences === 1 ? '' : 's'}${diff.truncated ? ' (the traces differ too much to align past the last one)' : ''}.`}
      </p>
      {first && (
        <section className="first-divergence" aria-labelledby="first-divergence-title">
          <h2 id="first-divergence-title" data-testid="first-divergence">
            First divergence: step {first.step_a} of A, step {first.step_b} of B
          </h2>
          <p className="small" data-testid="first-divergence-fields">
            Differs in:{' '}
            <span className="mono">
              {differingFields(first.a, first.b).join(', ') || 'nothing'}
            </span>
          </p>
          <div className="diff-sides">
            <DiffEventCard
              side="A"
              run={diff.run_a}
              step={first.step_a}
              event={first.a}
              other={first.b}
              lacking={diff.listed[0]?.a_count === 0 ? diff.listed[0].b_count : 0}
            />
            <DiffEventCard
              side="B"
              run={diff.run_b}
              step={first.step_b}
              event={first.b}
              other={first.a}
              lacking={diff.listed[0]?.b_count === 0 ? diff.listed[0].a_count : 0}
            />
          </div>
          {diff.at_divergence && (
            <div className="diff-sides">
              <StateTable
                title="Participants that differ there"
                rows={diff.at_divergence.participants}
                text={participantText}
              />
              <StateTable
                title="Sessions that differ there"
                rows={diff.at_divergence.sessions}
                text={sessionText}
              />
            </div>
          )}
        </section>
      )}
      {diff.listed.length > 1 && (
        <section aria-labelledby="rest-title">
          <h2 id="rest-title">Then, in order</h2>
          <ol className="diff-list">
            {diff.listed.slice(1).map((d) => (
              <li key={`${d.step_a}-${d.step_b}`} data-step-a={d.step_a} data-step-b={d.step_b}>
                <span className="mono">
                  A {d.step_a} / B {d.step_b}
                </span>{' '}
                <span className="muted small">
                  {d.a_count} event{d.a_count === 1 ? '' : 's'} of A replaced by {d.b_count} of B
                </span>
                {d.a.length === d.b.length && (
                  <div className="small" data-testid="difference-fields">
                    {d.a.map((e, k) => (
                      <div key={e.step}>
                        differs in:{' '}
                        <span className="mono">
                          {differingFields(e, d.b[k] ?? null).join(', ') || 'nothing'}
                        </span>
                      </div>
                    ))}
                  </div>
                )}
                <div className="diff-sides small mono">
                  <div>
                    {d.a.map((e) => (
                      <div key={e.step}>− {eventLine(e)}</div>
                    ))}
                    {d.a_count > d.a.length && (
                      <div className="muted">… {d.a_count - d.a.length} more</div>
                    )}
                  </div>
                  <div>
                    {d.b.map((e) => (
                      <div key={e.step}>+ {eventLine(e)}</div>
                    ))}
                    {d.b_count > d.b.length && (
                      <div className="muted">… {d.b_count - d.b.length} more</div>
                    )}
                  </div>
                </div>
              </li>
            ))}
          </ol>
          {diff.differences > diff.listed.length && (
            <p className="muted">… and {diff.differences - diff.listed.length} more.</p>
          )}
        </section>
      )}
    </div>
  )
}

/** `/diff?a=<run>&b=<run>`: two runs aligned, stopped at the first divergent event. */
export function DiffPage({ a, b }: { a: string | null; b: string | null }) {
  const runs = useQuery(runsQuery())
  const diff = useQuery({ ...runDiffQuery(a ?? '', b ?? ''), enabled: a !== null && b !== null })
  const finished = (runs.data?.runs ?? []).filter((r) => r.status === 'complete')
  const picker = (side: 'a' | 'b', value: string | null) => (
    <label>
      Run {side.toUpperCase()}{' '}
      <select
        value={value ?? ''}
        onChange={(e) =>
          go({
            page: 'diff',
            a: side === 'a' ? e.currentTarget.value : a,
            b: side === 'b' ? e.currentTarget.value : b,
          })
        }
      >
        <option value="">choose a run</option>
        {value !== null && !finished.some((r) => r.id === value) && (
          <option value={value}>{value}</option>
        )}
        {finished.map((r) => (
          <option key={r.id} value={r.id}>
            {r.scenario} · seed {r.seed} · {r.id}
          </option>
        ))}
      </select>
    </label>
  )
  return (
    <main className="page diff-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href="/">Runs</Link> <span aria-hidden="true">/</span> diff
      </nav>
      <h1>Compare two runs</h1>
      <div className="table-tools">
        {picker('a', a)}
        {picker('b', b)}
      </div>
      {a === null || b === null ? (
        <Empty>
          Choose two runs: their traces are aligned and the page stops at the first event where they
          part.
        </Empty>
      ) : diff.status === 'pending' ? (
        <Loading what="the diff" minHeight={400} />
      ) : diff.status === 'error' ? (
        <ErrorNotice
          what={`compare ${a} with ${b}`}
          error={diff.error}
          onRetry={() => void diff.refetch()}
        />
      ) : (
        <DiffBody diff={diff.data} />
      )}
    </main>
  )
}
