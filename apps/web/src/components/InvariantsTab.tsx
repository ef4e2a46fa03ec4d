import { INVARIANT_IDS } from '@cutover/core/contracts'
import type { BugInfo, InvariantFailure, InvariantId, InvariantMap } from '@cutover/core/contracts'

const DESCRIPTIONS: { readonly [I in InvariantId]: string } = {
  'manifest-last':
    'Manifests are published after every file they cover; checkpoint.json is written last.',
  'fenced-attempt-silent': 'A fenced or retired attempt causes no effect after its fence.',
  'revision-monotonic': 'A session’s state revision never goes backwards.',
  'restore-all-or-nothing': 'A restore activates every session of the checkpoint or none.',
  'resume-order': 'Nobody resumes before every participant has restored.',
  'relay-once': 'Each restored continuation is claimed and relayed exactly once.',
  'call-id-unique':
    'Every model call id names one call: ids are never reused across attempts or restores.',
  'acks-before-prepare':
    'Completed results are acknowledged with their exact receipts before the agents are asked to prepare.',
  'token-partition':
    'For every cut call, the durable prefix and the continuation together are exactly the tokens of the call never interrupted: no overlap, no gap.',
  'durable-before-ack':
    'No durable_prefix acknowledgement before its segment is durable in the token store.',
  'egress-fenced':
    'No response of a frozen ticket reaches the agent between the cut and the checkpoint’s disposition.',
  equivalence:
    'Continued rollouts end exactly as they would have without the checkpoint (checked at the end).',
}

/**
 * The Invariants tab: each invariant's status as known at this step. A failure names its first
 * failing step (from this step or, if later, from the finished run) with a link that seeks to it.
 */
export function InvariantsTab({
  invariants,
  failures,
  runFailures,
  step,
  onSeek,
  bug,
}: {
  invariants: InvariantMap
  failures: readonly InvariantFailure[]
  runFailures: readonly InvariantFailure[]
  step: number
  onSeek: (step: number) => void
  /** The run's teaching-mode bug, when it has one. */
  bug?: BugInfo | undefined
}) {
  const first = [...runFailures].sort((a, b) => a.step - b.step)[0]
  return (
    <div className="invariants" data-testid="invariants-view">
      {first && (
        <p className="first-failure" data-testid="first-failure">
          {firstFailureSentence(first, bug)}{' '}
          {first.step !== step && (
            <button type="button" className="link-button" onClick={() => onSeek(first.step)}>
              go to step {first.step} →
            </button>
          )}
        </p>
      )}
      <ul className="invariant-list">
        {INVARIANT_IDS.map((id) => {
          const status = invariants[id]
          const failure = failures.find((f) => f.id === id)
          const later = runFailures.find((f) => f.id === id && f.step > step)
          return (
            <li
              key={id}
              className={`invariant is-${status}`}
              data-invariant={id}
              data-status={status}
            >
              <span className={`verdict verdict-${status}`} aria-label={status}>
                {status === 'pass' ? '✓ pass' : '✗ fail'}
              </span>
              <div>
                <div className="mono strong">{id}</div>
                <div className="muted">{DESCRIPTIONS[id]}</div>
                {failure && (
                  <p className="failure">
                    {failure.message}{' '}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => onSeek(failure.step)}
                    >
                      first failing step {failure.step} →
                    </button>
                  </p>
                )}
                {!failure && later && (
                  <p className="failure muted">
                    Fails later in this run.{' '}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => onSeek(later.step)}
                    >
                      Go to step {later.step} →
                    </button>
                  </p>
                )}
              </div>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/**
 * One sentence on the run's first failure: which invariant, where, what happened, and the bug
 * behind it.
 */
export function firstFailureSentence(first: InvariantFailure, bug: BugInfo | undefined): string {
  const cause =
    bug !== undefined && bug.invariant === first.id
      ? ` — the bug ${bug.name} at work: ${lowerFirst(bug.narrative)}`
      : ''
  return `${first.id} first fails at step ${first.step}: ${first.message}${cause}`
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1)
