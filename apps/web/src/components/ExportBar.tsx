import { useState } from 'react'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { apiFetch } from '../api/client.ts'
import { fleetCommandLine, simulateCommandLine } from '@cutover/core/contracts'
import { diagramSvg } from '../lib/diagramSvg.ts'
import { downloadText } from '../lib/download.ts'

/**
 * Exports of what is on screen: the trace as JSON, the diagram as mermaid source and as SVG, and
 * the CLI command that reproduces the run (`cutover fleet` for a run recorded from processes).
 * Copying falls back to a selectable field when the clipboard is not available (plain HTTP,
 * permissions).
 */
export function ExportBar({
  run,
  mermaid,
  step,
}: {
  run: RunView
  mermaid: string | null
  step: number
}) {
  const [exporting, setExporting] = useState(false)
  const [copied, setCopied] = useState<'command' | 'mermaid' | null>(null)
  const [fallback, setFallback] = useState<string | null>(null)
  // every option of the run, faults and deadline included: the command reproduces it byte for byte;
  // a run recorded from processes is recorded again by cutover fleet (wall-clock, so not byte for
  // byte)
  const fleet = run.kind === 'fleet'
  const command = fleet ? fleetCommandLine(run) : simulateCommandLine(run)
  const base = `cutover-${run.scenario}-${run.id}`

  const copy = async (what: 'command' | 'mermaid', text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(what)
      setFallback(null)
      window.setTimeout(() => setCopied(null), 1_500)
    } catch {
      setFallback(text)
    }
  }
  // the whole trace is fetched only when asked for (≈ 100 MB of JSON at 10,000 rollouts): the page
  // reads a summary
  const exportTrace = async () => {
    setExporting(true)
    try {
      const { events } = await apiFetch<{ events: TraceEvent[] }>(
        `/api/runs/${encodeURIComponent(run.id)}/events`,
      )
      downloadText(
        `${base}.trace.json`,
        JSON.stringify({ run, events }, null, 2),
        'application/json',
      )
    } finally {
      setExporting(false)
    }
  }
  const svg = () => {
    const text = diagramSvg()
    if (text !== null) downloadText(`${base}-step${step}.svg`, text, 'image/svg+xml')
  }
  return (
    <div className="export-bar" role="group" aria-label="Export">
      <button type="button" disabled={exporting} onClick={() => void exportTrace()}>
        {exporting ? 'Exporting…' : 'Trace JSON'}
      </button>
      <button
        type="button"
        disabled={!mermaid}
        onClick={() => mermaid && downloadText(`${base}-step${step}.mmd`, mermaid, 'text/plain')}
      >
        Mermaid
      </button>
      <button
        type="button"
        disabled={!mermaid}
        onClick={() => mermaid && void copy('mermaid', mermaid)}
      >
        {copied === 'mermaid' ? 'Copied ✓' : 'Copy mermaid'}
      </button>
      <button type="button" disabled={!mermaid} onClick={svg}>
        SVG
      </button>
      {/* a real controller's recorded cycle is not reproduced by any command */}
      {run.kind !== 'recorded' && (
        <button type="button" title={command} onClick={() => void copy('command', command)}>
          {copied === 'command'
            ? 'Copied ✓'
            : fleet
              ? 'Copy as cutover fleet'
              : 'Copy as cutover simulate'}
        </button>
      )}
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
    </div>
  )
}
