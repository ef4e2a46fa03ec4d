import {
  RECORDED_CHECK_INVARIANT,
  RECORDED_CHECK_TEXT,
  UNCHECKABLE_INVARIANTS,
} from '@cutover/core/contracts'
import type { RecordedCheck } from '@cutover/core/contracts'

const VERDICT = { pass: '✓ pass', fail: '✗ fail', not_observed: '– not seen' } as const

/**
 * The Invariants tab of a recorded run: the checks a black box allows (docs/recording.md), each
 * with the exchange that breaks it (a link to its step), and the invariants of a simulated run that
 * cannot be checked from outside, with why. The checks are those of the recording so far.
 */
export function RecordedChecksTab({
  checks,
  step,
  onSeek,
}: {
  checks: readonly RecordedCheck[]
  step: number
  onSeek: (step: number) => void
}) {
  return (
    <div className="invariants recorded-checks" data-testid="invariants-view">
      <p className="muted small">
        Checked from outside: only what crossed the proxies and what the checkpoint directory holds.
      </p>
      <ul className="invariant-list">
        {checks.map((c) => {
          const stands = RECORDED_CHECK_INVARIANT[c.id]
          return (
            <li
              key={c.id}
              className={`invariant is-${c.status === 'fail' ? 'fail' : 'pass'}`}
              data-check={c.id}
              data-status={c.status}
            >
              <span
                className={`verdict verdict-${c.status === 'fail' ? 'fail' : c.status === 'pass' ? 'pass' : 'unseen'}`}
                aria-label={c.status}
              >
                {VERDICT[c.status]}
              </span>
              <div>
                <div className="mono strong">
                  {c.id}
                  {stands !== undefined && (
                    <span className="muted small"> · stands for {stands}</span>
                  )}
                </div>
                <div className="muted">{RECORDED_CHECK_TEXT[c.id]}</div>
                <p className={c.status === 'fail' ? 'failure' : 'muted small'}>
                  {c.message}
                  {c.status === 'fail' && c.step !== null && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="link-button"
                        data-testid="check-exchange"
                        onClick={() => onSeek(c.step ?? 0)}
                      >
                        exchange {c.exchange}, step {c.step}
                        {c.step > step ? ' (later)' : ''} →
                      </button>
                    </>
                  )}
                </p>
              </div>
            </li>
          )
        })}
      </ul>
      <h3 className="recorded-unchecked-title">Not checkable from outside</h3>
      <ul className="recorded-unchecked" data-testid="unchecked-invariants">
        {UNCHECKABLE_INVARIANTS.map((u) => (
          <li key={u.id}>
            <span className="mono strong">{u.id}</span> <span className="muted">— {u.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
