import type { ParticipantView } from '@cutover/core/contracts'

/** A card's participant: the step view's carries its first tombstones and `tombstone_count`. */
type Card = ParticipantView & { readonly tombstone_count?: number }

/** The tombstones on a card, the count of the rest after them. */
function listed(tombstones: readonly string[], count: number, shown: number): string {
  const first = tombstones.slice(0, shown).join(', ')
  return count > shown ? `${first} +${count - shown}` : first
}

const short = (digest: string | null) =>
  digest ? `${digest.replace(/^sha256:/, '').slice(0, 12)}…` : '—'

/**
 * One card per participant at this step: phase, admission, in-flight work, tombstones, manifest.
 */
export function ParticipantCards({ participants }: { participants: readonly Card[] }) {
  return (
    <ul className="participant-cards" aria-label="Participants">
      {participants.map((p) => (
        <li
          key={p.id}
          className={`participant-card phase-${p.phase}`}
          data-testid="participant-card"
          data-participant={p.id}
          data-phase={p.phase}
        >
          <div className="participant-head">
            <span className="participant-name">{p.id}</span>
            <span className={`phase-chip phase-${p.phase}`}>{p.phase}</span>
          </div>
          {p.pid !== undefined && (
            <div
              className="participant-pid muted small mono"
              title="the OS process that held this role at this step"
            >
              pid {p.pid}
            </div>
          )}
          {p.readiness !== undefined && (
            <div className="participant-readiness muted small" title="what its latest answer said">
              {p.readiness}
            </div>
          )}
          <dl className="participant-facts">
            <dt>admission</dt>
            <dd>{p.admission}</dd>
            <dt>in-flight</dt>
            <dd>{p.inflight}</dd>
            <dt>tombstones</dt>
            <dd
              title={listed(
                p.tombstones,
                p.tombstone_count ?? p.tombstones.length,
                p.tombstones.length,
              )}
            >
              {(p.tombstone_count ?? p.tombstones.length) > 0
                ? listed(p.tombstones, p.tombstone_count ?? p.tombstones.length, 3)
                : '—'}
            </dd>
            <dt>manifest</dt>
            <dd className="mono" title={p.manifest_digest ?? undefined}>
              {short(p.manifest_digest)}
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  )
}
