import { useState } from 'react'
import type { FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import {
  CUT_MODES,
  INTEGER_FIELDS,
  SCENARIO_NAMES,
  integerTextProblem,
  rolloutIds,
  rolloutNamingHint,
  seedTextProblem,
} from '@cutover/core/contracts'
import type { BugName, CutMode, Fault, ScenarioName } from '@cutover/core/contracts'
import { bugsQuery, scenariosQuery } from '../api/queries.ts'
import { useCreateRun } from '../api/useCreateRun.ts'
import { parseFaultsInput } from '@cutover/core/contracts'
import { go } from '../router/navigation.ts'
import { ErrorNotice } from './ErrorNotice.tsx'
import { FaultChip } from './FaultChip.tsx'

/**
 * The contract's field rules and wording, shared with the CLI and the API
 * (docs/protocol.md §12.1).
 */
const { rollouts: ROLLOUTS, deadline_ms: DEADLINE } = INTEGER_FIELDS

/**
 * A run with every knob: scenario, seed (decimal text of any size), rollouts, deadline, cut mode
 * and a fault schedule as a JSON list checked against the contract's fault schema before sending.
 * Empty fields take the scenario's defaults.
 */
export function NewRunForm() {
  const scenarios = useQuery(scenariosQuery())
  const [scenario, setScenario] = useState<ScenarioName>('happy-path')
  const [seed, setSeed] = useState('')
  const [rollouts, setRollouts] = useState('')
  const [deadline, setDeadline] = useState('')
  const [faults, setFaults] = useState('')
  const [bug, setBug] = useState<BugName | ''>('')
  const [cutMode, setCutMode] = useState<CutMode | ''>('')
  const bugs = useQuery(bugsQuery())
  const chosenBug = bugs.data?.bugs.find((b) => b.name === bug)
  const [touched, setTouched] = useState(false)

  const faultsParsed = parseFaultsInput(faults)
  // The seed travels as decimal text so a seed of any size survives JSON (docs/protocol.md §12.1).
  const seedError = seed === '' ? null : seedTextProblem(seed)
  const rolloutsError =
    rollouts === '' ? null : integerTextProblem(rollouts, ROLLOUTS.min, ROLLOUTS.max)
  const deadlineError =
    deadline === '' ? null : integerTextProblem(deadline, DEADLINE.min, DEADLINE.max)
  const invalid =
    !faultsParsed.ok || seedError !== null || rolloutsError !== null || deadlineError !== null
  const preset = scenarios.data?.scenarios.find((s) => s.name === scenario)
  // The schedule the run would get, as editable chips: the typed list, or else the preset's own.
  const schedule: readonly Fault[] = faultsParsed.ok
    ? (faultsParsed.faults ?? preset?.faults ?? [])
    : []
  // The placeholder and the hint name rollouts of the run this form would start.
  const runRollouts =
    rollouts !== '' && rolloutsError === null ? Number(rollouts) : (preset?.config.rollouts ?? 9)
  const exampleRollout = rolloutIds(runRollouts)[Math.min(7, runRollouts - 1)] ?? 'r0'

  const create = useCreateRun()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (invalid || !faultsParsed.ok) return
    create.mutate(
      {
        scenario,
        ...(seed !== '' && { seed }),
        ...(rollouts !== '' && { rollouts: Number(rollouts) }),
        ...(deadline !== '' && { deadline_ms: Number(deadline) }),
        ...(faultsParsed.faults && { faults: faultsParsed.faults }),
        ...(bug !== '' && { bug }),
        ...(cutMode !== '' && { cut_mode: cutMode }),
      },
      {
        onSuccess: (created) => {
          go({ page: 'run', id: created.id, step: null, tab: 'sessions', session: null })
          // the run page opens at its title, not at the form's scroll position
          window.scrollTo(0, 0)
        },
      },
    )
  }

  return (
    <form className="new-run" onSubmit={submit} noValidate aria-label="New run">
      <div className="form-row">
        <label>
          Scenario
          <select
            value={scenario}
            onChange={(e) => setScenario(e.currentTarget.value as ScenarioName)}
          >
            {SCENARIO_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Seed
          <input
            type="text"
            inputMode="numeric"
            placeholder="0"
            value={seed}
            onChange={(e) => setSeed(e.currentTarget.value.trim())}
            aria-invalid={seedError !== null}
            aria-describedby="seed-error"
          />
          <span id="seed-error" className="field-error">
            {seedError}
          </span>
        </label>
        <label>
          Rollouts
          <input
            type="text"
            inputMode="numeric"
            placeholder={String(preset?.config.rollouts ?? 9)}
            value={rollouts}
            onChange={(e) => setRollouts(e.currentTarget.value.trim())}
            aria-invalid={rolloutsError !== null}
            aria-describedby="rollouts-error"
          />
          <span id="rollouts-error" className="field-error">
            {rolloutsError}
          </span>
        </label>
        <label>
          Deadline (ms)
          <input
            type="text"
            inputMode="numeric"
            placeholder={String(preset?.config.deadline_ms ?? '')}
            value={deadline}
            onChange={(e) => setDeadline(e.currentTarget.value.trim())}
            aria-invalid={deadlineError !== null}
            aria-describedby="deadline-error"
          />
          <span id="deadline-error" className="field-error">
            {deadlineError}
          </span>
        </label>
      </div>
      <label className="faults-field">
        Faults{' '}
        <span className="muted small">
          (JSON list; empty = the scenario’s own schedule
          {preset && preset.faults.length > 0 ? `: ${JSON.stringify(preset.faults)}` : ''})
        </span>
        <textarea
          rows={3}
          spellCheck={false}
          placeholder={`[{"kind": "straggler", "rollout": "${exampleRollout}", "extra_ms": 500}]`}
          value={faults}
          onChange={(e) => setFaults(e.currentTarget.value)}
          aria-invalid={!faultsParsed.ok}
          aria-describedby="faults-hint faults-errors"
        />
      </label>
      {schedule.length > 0 && (
        <div className="run-faults form-faults" aria-label="The fault schedule this run gets">
          {schedule.map((f, i) => (
            <FaultChip
              key={i}
              fault={f}
              removeLabel="Remove this fault"
              onRemove={() => setFaults(JSON.stringify(schedule.filter((_, j) => j !== i)))}
            />
          ))}
        </div>
      )}
      <p id="faults-hint" className="muted small" data-testid="faults-hint">
        Name a rollout by {rolloutNamingHint(runRollouts)}; a fault naming a rollout or worker this
        run does not have is refused, and a fault that never fires is listed on the run.
      </p>
      <ul id="faults-errors" className="field-errors" aria-live="polite">
        {!faultsParsed.ok &&
          (touched || faults.trim() !== '') &&
          faultsParsed.errors.map((e) => <li key={e}>{e}</li>)}
      </ul>
      <label className="cut-mode-field">
        Cut mode
        <select
          value={cutMode}
          onChange={(e) => setCutMode(e.currentTarget.value as CutMode | '')}
          aria-describedby="cut-mode-hint"
        >
          <option value="">
            the scenario’s own ({preset?.config.cut_mode ?? 'whole-request'})
          </option>
          {CUT_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {mode}
            </option>
          ))}
        </select>
      </label>
      <p id="cut-mode-hint" className="muted small">
        What prepare does to a model call still generating at the deadline:{' '}
        <code>whole-request</code> sacrifices it (the straggler is retired),{' '}
        <code>generation-safe</code> cuts it at a durable token boundary and continues it after
        restore.
      </p>
      <label className="bug-field">
        Bug (teaching mode)
        <select value={bug} onChange={(e) => setBug(e.currentTarget.value as BugName | '')}>
          <option value="">none — the protocol as specified</option>
          {(bugs.data?.bugs ?? []).map((b) => (
            <option key={b.name} value={b.name}>
              {b.name} (breaks {b.invariant})
            </option>
          ))}
        </select>
      </label>
      {chosenBug && (
        <p className="muted small bug-narrative">
          {chosenBug.narrative} Watch the Invariants tab: {chosenBug.invariant} fails
          {chosenBug.scenarios === undefined
            ? '.'
            : ` — on ${chosenBug.scenarios.join(', ')} only.`}
          {chosenBug.scenarios !== undefined && !chosenBug.scenarios.includes(scenario) && (
            <strong className="bug-scenario-hint">
              {' '}
              The scenario chosen above ({scenario}) does not show it.
            </strong>
          )}
        </p>
      )}
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
