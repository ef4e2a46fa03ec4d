import { useState } from 'react'
import type { FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { MAX_ROLLOUTS, SCENARIO_NAMES, runConfigSchema } from '@cutover/core/contracts'
import type { ScenarioName } from '@cutover/core/contracts'
import { scenariosQuery } from '../api/queries.ts'
import { useCreateRun } from '../api/useCreateRun.ts'
import { parseFaultsInput } from '../lib/faultsInput.ts'
import { go } from '../router/navigation.ts'
import { ErrorNotice } from './ErrorNotice.tsx'

/** The contract's own field schemas: the form checks what `POST /api/runs` will check. */
const FIELDS = runConfigSchema.shape
/** A number field's text as the number it sends (a non-number fails the schema). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text))

/**
 * A run with every knob: scenario, seed (decimal text of any size), rollouts, deadline and a
 * fault schedule as a JSON list checked against the contract's fault schema before sending.
 * Empty fields take the scenario's defaults.
 */
export function NewRunForm() {
  const scenarios = useQuery(scenariosQuery())
  const [scenario, setScenario] = useState<ScenarioName>('happy-path')
  const [seed, setSeed] = useState('')
  const [rollouts, setRollouts] = useState('')
  const [deadline, setDeadline] = useState('')
  const [faults, setFaults] = useState('')
  const [touched, setTouched] = useState(false)

  const faultsParsed = parseFaultsInput(faults)
  // The seed travels as decimal text so a seed of any size survives JSON (CONTRACTS.md §1).
  const seedError = seed !== '' && !FIELDS.seed.safeParse(seed).success ? 'a seed is a non-negative whole number in decimal digits' : null
  const rolloutsNumber = numberOf(rollouts)
  const rolloutsError = rollouts !== '' && !FIELDS.rollouts.safeParse(rolloutsNumber).success ? `between 1 and ${MAX_ROLLOUTS}` : null
  const deadlineNumber = numberOf(deadline)
  const deadlineError = deadline !== '' && !FIELDS.deadline_ms.safeParse(deadlineNumber).success ? 'whole milliseconds, 0 to 3,600,000' : null
  const invalid = !faultsParsed.ok || seedError !== null || rolloutsError !== null || deadlineError !== null
  const preset = scenarios.data?.scenarios.find((s) => s.name === scenario)

  const create = useCreateRun()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (invalid || !faultsParsed.ok) return
    create.mutate(
      {
        scenario,
        ...(seed !== '' && { seed }),
        ...(rollouts !== '' && { rollouts: rolloutsNumber }),
        ...(deadline !== '' && { deadline_ms: deadlineNumber }),
        ...(faultsParsed.faults && { faults: faultsParsed.faults }),
      },
      { onSuccess: (created) => go({ page: 'run', id: created.id, step: null, tab: 'sessions', session: null }) },
    )
  }

  return (
    <form className="new-run" onSubmit={submit} noValidate aria-label="New run">
      <div className="form-row">
        <label>
          Scenario
          <select value={scenario} onChange={(e) => setScenario(e.currentTarget.value as ScenarioName)}>
            {SCENARIO_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Seed
          <input type="text" inputMode="numeric" placeholder="0" value={seed} onChange={(e) => setSeed(e.currentTarget.value.trim())} aria-invalid={seedError !== null} aria-describedby="seed-error" />
          <span id="seed-error" className="field-error">{seedError}</span>
        </label>
        <label>
          Rollouts
          <input type="number" min={1} max={MAX_ROLLOUTS} placeholder={String(preset?.config.rollouts ?? 9)} value={rollouts} onChange={(e) => setRollouts(e.currentTarget.value)} aria-invalid={rolloutsError !== null} aria-describedby="rollouts-error" />
          <span id="rollouts-error" className="field-error">{rolloutsError}</span>
        </label>
        <label>
          Deadline (ms)
          <input type="number" min={0} placeholder={String(preset?.config.deadline_ms ?? '')} value={deadline} onChange={(e) => setDeadline(e.currentTarget.value)} aria-invalid={deadlineError !== null} aria-describedby="deadline-error" />
          <span id="deadline-error" className="field-error">{deadlineError}</span>
        </label>
      </div>
      <label className="faults-field">
        Faults <span className="muted small">(JSON list; empty = the scenario’s own schedule{preset && preset.faults.length > 0 ? `: ${JSON.stringify(preset.faults)}` : ''})</span>
        <textarea
          rows={3}
          spellCheck={false}
          placeholder='[{"kind": "straggler", "rollout": "r7", "extra_ms": 500}]'
          value={faults}
          onChange={(e) => setFaults(e.currentTarget.value)}
          aria-invalid={!faultsParsed.ok}
          aria-describedby="faults-errors"
        />
      </label>
      <ul id="faults-errors" className="field-errors" aria-live="polite">
        {!faultsParsed.ok && (touched || faults.trim() !== '') && faultsParsed.errors.map((e) => <li key={e}>{e}</li>)}
      </ul>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Starting…' : 'Start run'}
        </button>
        {touched && invalid && <span className="field-error">Fix the fields marked above.</span>}
      </div>
      {create.isError && <ErrorNotice what="start the run" error={create.error} />}
    </form>
  )
}
