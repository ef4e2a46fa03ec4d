import type { JsonValue, TraceEvent } from '@cutover/core/contracts'

const text = (v: JsonValue | undefined): string | undefined =>
  typeof v === 'string' ? v : undefined

/** A body as the recording kept it: pretty JSON, the text, or "(empty)". */
function Body({ value, kept }: { value: JsonValue | undefined; kept: JsonValue | undefined }) {
  const info = kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? kept : null
  return (
    <>
      {info !== null && (
        <p className="muted small" data-testid="truncated-body">
          truncated: {String(info['bytes'])} bytes, SHA-256{' '}
          <span className="mono">{String(info['sha256']).slice(0, 16)}…</span>; the head is kept
        </p>
      )}
      <pre className="recorded-body mono">
        {value === null || value === undefined
          ? '(empty)'
          : typeof value === 'string'
            ? value
            : JSON.stringify(value, null, 2)}
      </pre>
    </>
  )
}

/**
 * The exchange of the current step of a recorded run, whole (docs/recording.md): its route, status
 * and duration, the identity headers, the request and the answer as the participant sent them,
 * and what the real stack's harness adapted (`bridged`). Shown above the Events tab's log.
 */
export function RecordedExchange({ event }: { event: TraceEvent | null }) {
  if (event === null || !('exchange' in event.payload))
    return (
      <p className="muted recorded-exchange" data-testid="recorded-exchange">
        Step 0: before the first exchange. Pick an event to see its request and answer.
      </p>
    )
  const p = event.payload
  const status = p['http_status']
  const headers = p['headers']
  const h =
    headers !== null && typeof headers === 'object' && !Array.isArray(headers) ? headers : {}
  const query = p['query']
  const hasQuery = query !== null && typeof query === 'object' && Object.keys(query).length > 0
  return (
    <section className="recorded-exchange" data-testid="recorded-exchange" data-step={event.step}>
      <h3>
        <span className="mono">exchange {String(p['exchange'])}</span> ·{' '}
        <span className="mono strong">
          {text(p['method'])} {text(p['path'])}
        </span>{' '}
        → <span className="mono">{text(p['participant'])}</span>{' '}
        <span className={event.outcome === 'ok' ? 'muted' : 'outcome-error'}>
          {typeof status === 'number' ? status : 'no answer'}
          {event.outcome === 'ok' ? '' : ` ${event.outcome}`}
        </span>{' '}
        <span className="muted">
          · {String(p['ms'])} ms
          {p['long_poll'] === true ? ' (a long poll: one call with its wait)' : ''}
        </span>
      </h3>
      {text(p['transport_error']) !== undefined && (
        <p className="notice notice-error">{text(p['transport_error'])}</p>
      )}
      <div className="recorded-sides">
        <div>
          <h4>Request</h4>
          {hasQuery && (
            <>
              <div className="muted small">query</div>
              <pre className="recorded-body mono">{JSON.stringify(query, null, 2)}</pre>
            </>
          )}
          {Object.keys(h['request'] ?? {}).length > 0 && (
            <>
              <div className="muted small">headers kept</div>
              <pre className="recorded-body mono">{JSON.stringify(h['request'], null, 2)}</pre>
            </>
          )}
          <div className="muted small">body</div>
          <Body value={p['request']} kept={p['request_body']} />
        </div>
        <div>
          <h4>Answer</h4>
          {Object.keys(h['response'] ?? {}).length > 0 && (
            <>
              <div className="muted small">headers kept</div>
              <pre className="recorded-body mono">{JSON.stringify(h['response'], null, 2)}</pre>
            </>
          )}
          <div className="muted small">body</div>
          <Body value={p['response']} kept={p['response_body']} />
        </div>
      </div>
      {p['bridged'] !== undefined && (
        <details>
          <summary>Adapted by the real stack's harness (bridged)</summary>
          <pre className="recorded-body mono">{JSON.stringify(p['bridged'], null, 2)}</pre>
        </details>
      )}
    </section>
  )
}
