import type { DirectoryRunView } from '@cutover/core/contracts'
import { Empty } from './Empty.tsx'

/**
 * The agent's committed boundary of each execution: turn, last committed call, resource revisions.
 */
export function DirectoryBoundariesTab({ run }: { run: DirectoryRunView }) {
  if (run.boundaries.length === 0)
    return <Empty>No readable agent boundary record in this directory.</Empty>
  return (
    <div className="table-scroll" data-testid="boundaries-view">
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Execution</th>
            <th scope="col" className="num">
              Boundary
            </th>
            <th scope="col" className="num">
              Turn
            </th>
            <th scope="col">Last committed call</th>
            <th scope="col">Resource revisions</th>
            <th scope="col" className="num">
              Outputs
            </th>
            <th scope="col">File</th>
          </tr>
        </thead>
        <tbody>
          {run.boundaries.map((b) => (
            <tr
              key={b.key}
              data-execution={b.key}
              data-problem={b.problem?.code}
              className={b.problem ? 'is-damaged' : undefined}
            >
              <td className="mono">{b.key}</td>
              <td className="num">{b.boundary_index < 0 ? '—' : b.boundary_index}</td>
              <td className="num">{b.turn_index < 0 ? '—' : b.turn_index}</td>
              <td className="mono">{b.last_committed_model_call_id ?? '—'}</td>
              <td className="mono">
                {Object.entries(b.resource_state_revisions)
                  .map(([server, revision]) => `${server} r${revision}`)
                  .join(', ') || '—'}
              </td>
              <td className="num">{b.output_items}</td>
              <td className="mono small">
                {b.file}{' '}
                {b.problem ? (
                  <span className="file-status status-digest_mismatch">✗ {b.problem.code}</span>
                ) : b.verified ? (
                  ''
                ) : (
                  <span className="file-status status-digest_mismatch">not verified</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
