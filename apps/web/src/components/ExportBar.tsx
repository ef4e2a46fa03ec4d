import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { scenariosQuery } from '../api/queries.ts'
import { downloadText } from '../lib/download.ts'
import { simulateCommand } from '../lib/simulateCommand.ts'

/**
 * Exports of what is on screen: the trace as JSON, the diagram as mermaid source and as SVG, and
 * the CLI command that reproduces the run. Copying falls back to a selectable field when the
 * clipboard is not available (plain HTTP, permissions).
 */
export function ExportBar({ run, events, mermaid, step }: { run: RunView; events: readonly TraceEvent[] | null; mermaid: string | null; step: number }) {
  const [copied, setCopied] = useState<'command' | 'mermaid' | null>(null)
  const [fallback, setFallback] = useState<string | null>(null)
  const command = simulateCommand(run)
  // the CLI takes a scenario's own fault schedule; say so when this run overrode it
  const preset = useQuery(scenariosQuery()).data?.scenarios.find((s) => s.name === run.scenario)
  const customFaults = preset !== undefined && JSON.stringify(preset.faults) !== JSON.stringify(run.faults)
  const deadlineDiffers = preset !== undefined && preset.config.deadline_ms !== run.deadline_ms
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
  const svg = () => {
    const element = document.querySelector('[data-testid="sequence-diagram"] svg')
    if (!element) return
    downloadText(`${base}-step${step}.svg`, new XMLSerializer().serializeToString(element), 'image/svg+xml')
  }
  return (
    <div className="export-bar" role="group" aria-label="Export">
      <button type="button" disabled={!events} onClick={() => events && downloadText(`${base}.trace.json`, JSON.stringify({ run, events }, null, 2), 'application/json')}>
        Trace JSON
      </button>
      <button type="button" disabled={!mermaid} onClick={() => mermaid && downloadText(`${base}-step${step}.mmd`, mermaid, 'text/plain')}>
        Mermaid
      </button>
      <button type="button" disabled={!mermaid} onClick={() => mermaid && void copy('mermaid', mermaid)}>
        {copied === 'mermaid' ? 'Copied ✓' : 'Copy mermaid'}
      </button>
      <button type="button" disabled={!mermaid} onClick={svg}>
        SVG
      </button>
      <button type="button" title={command} onClick={() => void copy('command', command)}>
        {copied === 'command' ? 'Copied ✓' : 'Copy as cutover simulate'}
      </button>
      {(customFaults || deadlineDiffers) && (
        <span className="muted small">the command uses the scenario’s own {customFaults ? 'faults' : ''}{customFaults && deadlineDiffers ? ' and ' : ''}{deadlineDiffers ? 'deadline' : ''}, not this run’s</span>
      )}
      {fallback !== null && (
        <input className="copy-fallback" readOnly aria-label="Copy this text" value={fallback} ref={(el) => el?.select()} onBlur={() => setFallback(null)} />
      )}
    </div>
  )
}
