import type { GenerationCutView } from '@cutover/core/contracts'

const short = (digest: string | null) => (digest === null ? '—' : `${digest.slice(0, 12)}…`)
const tokens = (n: number | null) => (n === null ? '—' : `${n.toLocaleString('en-US')} tokens`)

/**
 * The generation cuts of one session's model calls (Sessions detail): for each cut call, the
 * prefix frozen in attempt N and the continuation generated under N+1, each with its length and
 * digest, and what they add up to — the tokens of the same call never interrupted. `postMortem`:
 * the ledger's records of a checkpoint directory (no trace, so no steps; N+1 has not run yet).
 */
export function GenerationCuts({
  cuts,
  onSeek,
  postMortem = false,
}: {
  cuts: readonly GenerationCutView[]
  onSeek?: (step: number) => void
  postMortem?: boolean
}) {
  if (cuts.length === 0) return null
  const stepLink = (step: number | null) =>
    step === null ? (
      '—'
    ) : onSeek ? (
      <button type="button" className="link-button" onClick={() => onSeek(step)}>
        step {step}
      </button>
    ) : (
      `step ${step}`
    )
  return (
    <section className="generation-cuts" aria-label="Generation cuts" data-testid="generation-cuts">
      <h4>Generation cuts</h4>
      <ul>
        {cuts.map((cut) => (
          <li
            key={cut.model_call_id}
            className="generation-cut"
            data-call={cut.model_call_id}
            data-disposition={cut.disposition}
          >
            <p className="cut-head">
              <span className="mono strong">
                {cut.rollout_id}.a{cut.attempt} {cut.model_call_id}
              </span>{' '}
              <span className="mono">{cut.disposition}</span>
              {cut.cut_kind && <span className="muted"> ({cut.cut_kind})</span>}{' '}
              <span className="muted">
                ·{' '}
                {postMortem ? (
                  cut.disposition === 'durable_prefix' ||
                  cut.disposition === 'completed_durable' ? (
                    `cut at token ${cut.prefix_token_count.toLocaleString('en-US')}`
                  ) : (
                    'no prefix kept'
                  )
                ) : (
                  <>cut at {stepLink(cut.cut_step)}</>
                )}
              </span>
            </p>
            <dl className="cut-facts">
              <dt>Prefix (attempt {cut.attempt})</dt>
              <dd data-testid="prefix-length">
                {tokens(cut.prefix_token_count)}{' '}
                <span className="mono small muted" title={cut.prefix_digest ?? undefined}>
                  · sha256 {short(cut.prefix_digest)}
                </span>
                {cut.staging_keys.length > 0 && (
                  <span className="mono small muted"> · {cut.staging_keys.join(', ')}</span>
                )}
              </dd>
              <dt>Continuation (attempt {cut.attempt + 1})</dt>
              <dd data-testid="continuation-length">
                {cut.continued_by === null ? (
                  <span className="muted">
                    {postMortem
                      ? 'continues under attempt N+1 after a restore (not in this directory)'
                      : 'not continued at this step'}
                  </span>
                ) : (
                  <>
                    {tokens(cut.continuation_token_count)}{' '}
                    <span className="muted small">by {cut.continued_by}</span>{' '}
                    <span className="mono small muted" title={cut.continuation_digest ?? undefined}>
                      · sha256 {short(cut.continuation_digest)}
                    </span>{' '}
                    <span className="muted small">
                      · prefix {cut.prefix_delivery ?? '—'} · {stepLink(cut.continue_step)}
                    </span>
                  </>
                )}
              </dd>
              <dt>Whole call</dt>
              <dd data-testid="whole-length">{tokens(cut.total_token_count)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  )
}
