import { useEffect, useRef, useState } from 'react'
import type { ReactNode, RefObject } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { CardChange, JsonValue, MessageView, SessionRow } from '@cutover/core/contracts'
import { messageQuery } from '../api/queries.ts'
import { narrate } from '../lib/narrate.ts'
import { isTypingTarget } from '../lib/stepKey.ts'
import { ErrorNotice } from './ErrorNotice.tsx'
import { JsonTree } from './JsonTree.tsx'
import { Loading } from './Loading.tsx'
import { useDockedPanel } from './useDockedPanel.ts'

const FIELD_LABELS: { readonly [F in CardChange['field']]: string } = {
  phase: 'phase',
  admission: 'admission',
  inflight: 'in-flight',
  tombstones: 'tombstones',
  manifest_digest: 'manifest',
  checkpoint_id: 'checkpoint',
}

const shown = (value: JsonValue): string =>
  value === null
    ? '—'
    : typeof value === 'string'
      ? value.replace(/^sha256:(.{12}).*$/, '$1…').replace(/^([0-9a-f]{12})[0-9a-f]{20,}$/, '$1…')
      : JSON.stringify(value)

/** The full value behind a shortened one (a digest), as the cell's tooltip. */
const whole = (value: JsonValue): string | undefined =>
  typeof value === 'string' && shown(value) !== value ? value : undefined

/**
 * A name or value that may wrap after each `_` (`resources_` / `blackjack`,
 * `committed_` / `paused`) rather than inside a word, so the table fits a narrow side panel.
 */
function soft(text: string): ReactNode[] {
  return text.split(/(?<=_)/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]))
}

/** What the pair of a message is, in one line. */
function pairLine(view: MessageView): string {
  const { role, other, by } = view.pair
  const key = by === null ? '' : ` (${by})`
  switch (role) {
    case 'request':
      return other
        ? `Request: answered at step ${other.step} by ${other.type}${key}.`
        : `Request: no answer in the trace so far${key}.`
    case 'answer':
      return other
        ? `Answer to the ${other.type} of step ${other.step}${key}.`
        : `Answer${key}; its request is not in the trace.`
    case 'both':
      return 'One message carries the call and the participant’s answer (its result or refusal).'
    case 'none':
      return 'Not part of a request/answer pair.'
  }
}

/**
 * The payload panel of the message at `step` (Temporal's event detail, Redux DevTools' state
 * diff): the payload as a JSON tree, the outcome, the request/answer pair it belongs to, and what
 * changed in each participant card and in its session at that step; "Copy as JSON" copies the
 * event, the permalink opens this step with the panel open.
 */
export function MessagePanel({
  runId,
  step,
  permalink,
  onClose,
  onSeek,
  narration,
}: {
  runId: string
  step: number
  /** The URL of this step with the panel open. */
  permalink: string
  onClose: () => void
  onSeek: (step: number) => void
  /**
   * The page's own narration of the step (the straggler demo's), shown in place of the panel's
   * one-line narration: the panel takes its column while open, so the story stays in view.
   */
  narration?: ReactNode
}) {
  const message = useQuery({ ...messageQuery(runId, step), enabled: step > 0 })
  const [copied, setCopied] = useState<'json' | 'link' | null>(null)
  const [fallback, setFallback] = useState<string | null>(null)
  const copy = async (what: 'json' | 'link', text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(what)
      setFallback(null)
      window.setTimeout(() => setCopied(null), 1_500)
    } catch {
      setFallback(text)
    }
  }
  const view = message.data
  const panel = useRef<HTMLElement>(null)
  useDockedPanel(panel, step === 0 || message.status !== 'pending')
  useCloseKey(panel, onClose)
  return (
    <section
      ref={panel}
      className="message-panel"
      data-testid="message-panel"
      data-step={step}
      aria-labelledby="message-panel-title"
    >
      <header className="message-head">
        <h2 id="message-panel-title">
          Message at step {step}
          {view && (
            <>
              {' '}
              <span className="mono">{view.event.type}</span>
            </>
          )}
        </h2>
        <div className="message-actions">
          <button
            type="button"
            disabled={!view}
            onClick={() => view && void copy('json', JSON.stringify(view.event, null, 2))}
          >
            {copied === 'json' ? 'Copied ✓' : 'Copy as JSON'}
          </button>
          <a className="button-link" href={permalink} data-testid="message-permalink">
            Permalink
          </a>
          <button
            type="button"
            onClick={() => void copy('link', new URL(permalink, window.location.href).href)}
          >
            {copied === 'link' ? 'Copied ✓' : 'Copy link'}
          </button>
          <button type="button" onClick={onClose} aria-label="Close the message panel">
            Close
          </button>
        </div>
      </header>
      {fallback !== null && (
        <input
          className="copy-fallback"
          readOnly
          aria-label="Copy this text"
          value={fallback}
          ref={(el) => el?.select()}
          onBlur={() => setFallback(null)}
        />
      )}
      {step === 0 ? (
        <p className="muted">Step 0 is before the first message: step forward to open one.</p>
      ) : message.status === 'pending' ? (
        <Loading what={`the message at step ${step}`} minHeight={160} />
      ) : message.status === 'error' ? (
        <ErrorNotice
          what={`load the message at step ${step}`}
          error={message.error}
          onRetry={() => void message.refetch()}
        />
      ) : (
        <MessageBody view={message.data} onSeek={onSeek} narration={narration} />
      )}
    </section>
  )
}

/**
 * Esc closes the panel (not while typing in a field elsewhere on the page: the Events filter keeps
 * its own Esc). Re-subscribes every render, so it always calls the current `onClose`.
 */
function useCloseKey(panel: RefObject<HTMLElement | null>, onClose: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      const inside = event.target instanceof Node && panel.current?.contains(event.target)
      if (isTypingTarget(event.target) && !inside) return
      event.preventDefault()
      onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })
}

function MessageBody({
  view,
  onSeek,
  narration,
}: {
  view: MessageView
  onSeek: (step: number) => void
  narration: ReactNode
}) {
  const { event, pair } = view
  return (
    <div className="message-body">
      <div className="message-facts">
        <dl className="facts">
          <dt>from → to</dt>
          <dd className="mono">
            {event.from} → {event.to}
          </dd>
          <dt>phase</dt>
          <dd>
            <span className={`phase-chip phase-${event.phase}`}>{event.phase}</span>
          </dd>
          <dt>outcome</dt>
          <dd>
            <span
              className={event.outcome === 'ok' ? 'outcome-ok' : 'outcome-error'}
              data-testid="message-outcome"
            >
              {event.outcome === 'ok' ? '✓ ok' : `✗ ${event.outcome}`}
            </span>
          </dd>
          <dt>virtual time</dt>
          <dd>{event.time_ms} ms</dd>
        </dl>
        {narration ?? <p className="small">{narrate(event)}</p>}
        <h3>Request and answer</h3>
        <p className="small" data-testid="message-pair" data-role={pair.role}>
          {pairLine(view)}{' '}
          {pair.other && (
            <button type="button" className="link-button" onClick={() => onSeek(pair.other!.step)}>
              go to step {pair.other.step}
            </button>
          )}
        </p>
        <StateDiff changes={view.changes} session={view.session} />
      </div>
      <div className="message-payload">
        <h3>Payload</h3>
        <div className="json-tree" data-testid="message-payload">
          <JsonTree value={event.payload as JsonValue} />
        </div>
      </div>
    </div>
  )
}

/** The participant fields and the session fields the step changed, before → after. */
function StateDiff({
  changes,
  session,
}: {
  changes: MessageView['changes']
  session: MessageView['session']
}) {
  const rows = sessionChanges(session?.before ?? null, session?.after ?? null)
  return (
    <div className="state-diff" data-testid="state-diff">
      <h3>What changed at this step</h3>
      {changes.length === 0 && rows.length === 0 ? (
        <p className="muted small">No participant card and no session changed at this step.</p>
      ) : (
        <table className="data-table diff-table">
          <thead>
            <tr>
              <th scope="col">Participant</th>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={`${c.participant}-${c.field}`} data-participant={c.participant}>
                <td className="mono">{soft(c.participant)}</td>
                <td>{FIELD_LABELS[c.field]}</td>
                <td className="mono was" title={whole(c.before)}>
                  {soft(shown(c.before))}
                </td>
                <td className="mono now" title={whole(c.after)}>
                  {soft(shown(c.after))}
                  {c.added && c.added.length > 0 && (
                    <span className="muted"> (+ {c.added.join(', ')})</span>
                  )}
                </td>
              </tr>
            ))}
            {rows.map(([field, before, after]) => (
              <tr key={`session-${field}`} data-participant="session">
                <td className="mono">{session?.key}</td>
                <td>{field}</td>
                <td className="mono was">{soft(before)}</td>
                <td className="mono now">{soft(after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

/** The session fields that differ before and after the step: state, revision, summary. */
function sessionChanges(
  before: SessionRow | null,
  after: SessionRow | null,
): [string, string, string][] {
  if (before === null && after === null) return []
  const out: [string, string, string][] = []
  for (const field of ['state', 'revision', 'session_id', 'summary'] as const) {
    const a = before === null ? '—' : shown(before[field])
    const b = after === null ? '—' : shown(after[field])
    if (a !== b) out.push([field === 'session_id' ? 'session id' : field, a, b])
  }
  return out
}
