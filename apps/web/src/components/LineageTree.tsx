import type { LineageView } from '@cutover/core/contracts'

type Rollout = LineageView['rollouts'][number]
export type AttemptStatus = Rollout['attempts'][number]['status']
type Call = Rollout['attempts'][number]['calls'][number]

/**
 * A call's generation cut in words: "cut at token k" on the call of N, "continues … from token k"
 * on its continuation.
 */
export function cutNote(call: Call): string | null {
  const cut = call.generation_cut
  if (cut !== undefined) {
    if (cut.prefix_token_count !== undefined && cut.cut_kind === 'terminal_completion')
      return `finished behind the fence (${cut.prefix_token_count} tokens durable)`
    if (cut.prefix_token_count !== undefined && cut.disposition === 'durable_prefix')
      return `cut at token ${cut.prefix_token_count}`
    return cut.disposition.replace(/_/g, ' ')
  }
  const cont = call.continues_cut
  return cont === undefined
    ? null
    : `continues ${cont.model_call_id} from token ${cont.prefix_token_count} (${cont.prefix_delivery})`
}

function CutNotes({ call }: { call: Call }) {
  const note = cutNote(call)
  if (note === null) return null
  return (
    <span className="cut-note" data-testid={call.continues_cut ? 'continues-cut' : 'cut-note'}>
      {' '}
      {call.continues_cut
        ? '⇢'
        : call.generation_cut?.disposition === 'durable_prefix' &&
            call.generation_cut.cut_kind !== 'terminal_completion'
          ? '✂'
          : '·'}{' '}
      {note}
    </span>
  )
}

/**
 * The rollout → attempts → model calls tree of the Lineage tabs (a run's and a directory's):
 * retired and fenced attempts marked, the relay call of attempt N+1 with its arrow back to the
 * restored parent call of N, and `marked` calls (a directory's continuation roots) noted.
 */
export function LineageTree({
  rollouts,
  statusNote,
  onSeek,
  marked,
}: {
  rollouts: readonly Rollout[]
  statusNote: { readonly [S in AttemptStatus]: string }
  /** Calls become links to their step (a run); without it they are plain text (a directory). */
  onSeek?: (step: number) => void
  /** Calls to mark, with the note shown beside them. */
  marked?: (attempt: number, callId: string) => string | undefined
}) {
  return (
    <ul aria-label="Rollout lineage" className="tree">
      {rollouts.map((rollout) => (
        <li key={rollout.rollout_id} className="tree-rollout" data-rollout={rollout.rollout_id}>
          <span className="tree-label">
            <span className="mono strong">{rollout.rollout_id}</span>{' '}
            <span className="muted">{rollout.environment}</span>
          </span>
          <ul>
            {rollout.attempts.map((attempt) => (
              <li
                key={attempt.attempt}
                className={`tree-attempt attempt-${attempt.status}`}
                data-attempt={`${rollout.rollout_id}.a${attempt.attempt}`}
                data-status={attempt.status}
              >
                <span className="tree-label">
                  <span className="mono">
                    {rollout.rollout_id}.a{attempt.attempt}
                  </span>{' '}
                  <span className={`attempt-chip attempt-${attempt.status}`}>
                    {statusNote[attempt.status]}
                  </span>
                </span>
                {attempt.calls.length > 0 && (
                  <ul className="tree-calls">
                    {attempt.calls.map((call) => {
                      const note = marked?.(attempt.attempt, call.model_call_id)
                      return (
                        <li
                          key={call.model_call_id}
                          className={
                            call.relay || note !== undefined ? 'tree-call is-relay' : 'tree-call'
                          }
                        >
                          {onSeek ? (
                            <button
                              type="button"
                              className="link-button mono"
                              onClick={() => onSeek(call.step)}
                              title={`Go to step ${call.step}`}
                            >
                              {call.model_call_id}
                            </button>
                          ) : (
                            <span className="mono">{call.model_call_id}</span>
                          )}
                          {call.relay && call.parent_call_id && (
                            <span
                              className="relay-link"
                              title="The first call of this attempt continues from the restored parent call"
                            >
                              ↰ relay from restored parent{' '}
                              <span className="mono">{call.parent_call_id}</span>
                            </span>
                          )}
                          {!call.relay && call.parent_call_id && (
                            <span className="muted mono"> ← {call.parent_call_id}</span>
                          )}
                          <CutNotes call={call} />
                          {onSeek && <span className="muted"> · step {call.step}</span>}
                          {note !== undefined && <span className="relay-link"> ⇢ {note}</span>}
                        </li>
                      )
                    })}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  )
}
