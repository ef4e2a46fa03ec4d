import type { TokenSegmentView } from '@cutover/core/contracts'
import { FILE_STATUS } from '../lib/fileStatus.ts'

/**
 * The token-store segments a checkpoint's token-store manifest lists (generation-safe cuts): each
 * staged prefix with its token count and whether its bytes still match the listed SHA-256. Shown by
 * the run's Manifests tab and the directory inspector's.
 */
export function TokenSegments({
  segments,
  selected,
  onSelect,
}: {
  segments: readonly TokenSegmentView[]
  selected: string | null
  onSelect: (path: string) => void
}) {
  if (segments.length === 0) return null
  const bad = segments.filter((s) => s.status !== 'ok').length
  return (
    <section
      className="token-segments"
      aria-label="Token-store segments"
      data-testid="token-segments"
    >
      <h3 className="small">
        Token-store segments{' '}
        <span className="muted">
          · {segments.length} staged{bad > 0 ? `, ${bad} not matching` : ', all digests ok'}
        </span>
      </h3>
      <ul>
        {segments.map((seg) => (
          <li key={seg.path} data-status={seg.status} data-call={seg.model_call_id}>
            <button
              type="button"
              aria-pressed={seg.path === selected}
              className="link-button mono"
              onClick={() => onSelect(seg.path)}
              title={seg.staging_key}
            >
              {seg.model_call_id} seg-{seg.segment}
            </button>
            <span>{seg.token_count.toLocaleString('en-US')} tokens</span>
            <span className={`file-status status-${seg.status}`} title={`sha256 ${seg.sha256}`}>
              {FILE_STATUS[seg.status]}
              {seg.status === 'ok' ? ` · ${seg.sha256.slice(0, 8)}…` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
