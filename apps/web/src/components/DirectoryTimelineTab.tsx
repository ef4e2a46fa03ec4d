import type { DirectoryRunView } from '@cutover/core/contracts'

/** The directory's own timeline: files in the order the commit protocol writes them. */
export function DirectoryTimelineTab({ run }: { run: DirectoryRunView }) {
  const problems = new Map(run.files.map((f) => [f.path, f.problems]))
  return (
    <div data-testid="directory-timeline">
      <p className="muted small">
        Each namespace&apos;s data files land before its manifest; agent → model ledger → resources
        → aggregate manifest → token store → checkpoint.json.
      </p>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">File</th>
            <th scope="col">Writer</th>
            <th scope="col">Note</th>
            <th scope="col">Verification</th>
          </tr>
        </thead>
        <tbody>
          {run.timeline.map((t) => {
            const codes = problems.get(t.path) ?? []
            return (
              <tr key={t.path} data-path={t.path}>
                <td className="num">{t.order ?? '?'}</td>
                <td className="mono">{t.path}</td>
                <td className="mono small">{t.writer}</td>
                <td className="small">{t.note}</td>
                <td className={`file-status ${codes.length > 0 ? 'status-digest_mismatch' : ''}`}>
                  {codes.length > 0 ? codes.join(', ') : 'ok'}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
