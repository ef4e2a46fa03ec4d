import { useEffect, useMemo, useRef, useState } from 'react'
import type { FormEvent } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { seedTextProblem } from '@cutover/core/contracts'
import type { RunView, ScenarioName } from '@cutover/core/contracts'
import { createRun, runQuery, runsQuery, scenariosQuery } from '../api/queries.ts'
import { runKeys } from '../api/queryKeys.ts'
import { useRunTrace } from '../api/useRunTrace.ts'
import { DemoRunPanel } from '../components/DemoRunPanel.tsx'
import { ErrorNotice } from '../components/ErrorNotice.tsx'
import { Loading } from '../components/Loading.tsx'
import { preloadMermaid } from '../components/MermaidDiagram.tsx'
import { TransportBar } from '../components/TransportBar.tsx'
import { usePlayback } from '../components/usePlayback.ts'
import { useStepKeys } from '../components/useStepKeys.ts'
import { demoPair } from '../lib/demoPair.ts'
import { phaseBands } from '@cutover/core/contracts'
import { phaseStarts } from '../lib/phaseStarts.ts'
import { stragglerFate } from '../lib/stragglerFate.ts'
import { go } from '../router/navigation.ts'

/** The `whole-request` side: the straggler is sacrificed. */
const SCENARIO_A: ScenarioName = 'straggler-retirement'
/** The `generation-safe` side: the same straggler, cut at a token boundary and continued. */
const SCENARIO_B: ScenarioName = 'generation-safe-cut'

/**
 * Starts the runs the pair still lacks, both with `seed` (the generation-safe one first when no
 * seed is known).
 */
async function startPair(
  a: RunView | null,
  b: RunView | null,
  seed: string | null,
): Promise<{ a: RunView; b: RunView }> {
  const runB = b ?? (await createRun({ scenario: SCENARIO_B, ...(seed !== null && { seed }) }))
  const runA = a ?? (await createRun({ scenario: SCENARIO_A, seed: runB.seed }))
  return { a: runA, b: runB }
}

/**
 * `/demo/generation-cut`: `straggler-retirement` and `generation-safe-cut` for the same seed, side
 * by side, stepped together by one cursor. Without runs in the URL it reuses the newest matching
 * pair (or starts the runs the pair lacks) and puts their ids into the URL, so a reload or a
 * shared link shows the same two runs.
 */
export function GenerationCutDemoPage({
  a,
  b,
  step,
}: {
  a: string | null
  b: string | null
  step: number | null
}) {
  const client = useQueryClient()
  const paired = a !== null && b !== null
  const runs = useQuery({ ...runsQuery(), enabled: !paired })
  const scenarios = useQuery({ ...scenariosQuery(), enabled: !paired })
  const presetA = scenarios.data?.scenarios.find((s) => s.name === SCENARIO_A)
  const presetB = scenarios.data?.scenarios.find((s) => s.name === SCENARIO_B)
  const [error, setError] = useState<Error | null>(null)
  const [starting, setStarting] = useState(false)
  const busy = useRef(false)
  // the newest pair is looked for (or started) once per visit; "Retry" or the seed form start again
  const looked = useRef(false)

  const start = (plan: { a: RunView | null; b: RunView | null; seed: string | null }) => {
    if (busy.current) return
    busy.current = true
    setStarting(true)
    setError(null)
    startPair(plan.a, plan.b, plan.seed)
      .then((pair) => {
        client.setQueryData(runKeys.detail(pair.a.id), pair.a)
        client.setQueryData(runKeys.detail(pair.b.id), pair.b)
        void client.invalidateQueries({ queryKey: runKeys.list() })
        go({ page: 'generation-cut', a: pair.a.id, b: pair.b.id, step: 0 }, { replace: !paired })
      })
      .catch((e: unknown) => setError(e instanceof Error ? e : new Error(String(e))))
      .finally(() => {
        busy.current = false
        setStarting(false)
      })
  }

  useEffect(() => {
    if (paired || runs.status !== 'success' || !presetA || !presetB || looked.current) return
    looked.current = true
    const plan = demoPair(runs.data.runs, presetA, presetB)
    if (plan.a && plan.b)
      go({ page: 'generation-cut', a: plan.a.id, b: plan.b.id, step: step ?? 0 }, { replace: true })
    else start(plan)
  })

  let body
  if (paired) body = <PairedRuns a={a} b={b} step={step} />
  else if (error !== null)
    body = (
      <ErrorNotice
        what="start the two demo runs"
        error={error}
        onRetry={() => {
          looked.current = false
          setError(null)
        }}
      />
    )
  else if (runs.status === 'error')
    body = (
      <ErrorNotice what="list the runs" error={runs.error} onRetry={() => void runs.refetch()} />
    )
  else if (scenarios.status === 'success' && (!presetA || !presetB))
    body = (
      <ErrorNotice
        what="find the demo's scenarios"
        error={new Error(`This server does not offer ${!presetA ? SCENARIO_A : SCENARIO_B}.`)}
      />
    )
  else body = <Loading what="the two demo runs" minHeight={600} />

  return (
    <main className="page demo-page generation-cut-demo">
      <header className="demo-head">
        <h1>Generation-safe cut</h1>
        <p className="muted">
          The same seed, the same straggler, two cut modes. On the left (<code>whole-request</code>)
          the rollout still generating at the prepare deadline is sacrificed: aborted, retired and
          redispatched from scratch. On the right (<code>generation-safe</code>) its generation is
          cut at a token boundary: the prefix is staged durably in the token store before the worker
          acknowledges, the response is fenced, and after restore the same call continues from that
          token under attempt N+1. One cursor steps both runs; step with ← and →.
        </p>
        <SeedForm disabled={starting} onRun={(seed) => start({ a: null, b: null, seed })} />
      </header>
      {body}
    </main>
  )
}

/** A seed for a fresh pair of runs. */
function SeedForm({ disabled, onRun }: { disabled: boolean; onRun: (seed: string) => void }) {
  const [seed, setSeed] = useState('')
  const problem = seed === '' ? null : seedTextProblem(seed)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (seed !== '' && problem === null) onRun(seed)
  }
  return (
    <form className="seed-form" onSubmit={submit} aria-label="Run the pair with another seed">
      <label>
        Seed{' '}
        <input
          type="text"
          inputMode="numeric"
          placeholder="e.g. 7"
          value={seed}
          onChange={(e) => setSeed(e.currentTarget.value.trim())}
          aria-invalid={problem !== null}
          aria-describedby="pair-seed-error"
        />
      </label>{' '}
      <button
        type="submit"
        className="link-button"
        disabled={disabled || seed === '' || problem !== null}
      >
        {disabled ? 'Starting both runs…' : 'Run both modes with this seed'}
      </button>{' '}
      <span id="pair-seed-error" className="field-error">
        {problem}
      </span>
    </form>
  )
}

/** One run of the pair: the run (kept up to date while it streams) and its trace. */
function usePairSide(id: string) {
  const run = useQuery(runQuery(id))
  const trace = useRunTrace(id, run.data)
  return {
    run,
    trace,
    done: run.data !== undefined && run.data.status !== 'running' && trace.events !== null,
  }
}

function PairedRuns({ a, b, step }: { a: string; b: string; step: number | null }) {
  useEffect(preloadMermaid, [])
  const sideA = usePairSide(a)
  const sideB = usePairSide(b)
  const eventsA = useMemo(
    () => (sideA.done ? (sideA.trace.events ?? []) : []),
    [sideA.done, sideA.trace.events],
  )
  const eventsB = useMemo(
    () => (sideB.done ? (sideB.trace.events ?? []) : []),
    [sideB.done, sideB.trace.events],
  )
  const total = Math.max(eventsA.length, eventsB.length)
  const cursor = Math.min(step ?? 0, total)
  const seek = (n: number) =>
    go({ page: 'generation-cut', a, b, step: Math.max(0, Math.min(total, n)) }, { replace: true })
  const playback = usePlayback(cursor, total, seek)
  const fateA = useMemo(() => stragglerFate(eventsA), [eventsA])
  const fateB = useMemo(() => stragglerFate(eventsB), [eventsB])
  const longer = eventsA.length >= eventsB.length ? eventsA : eventsB
  const bands = useMemo(() => phaseBands(longer), [longer])
  const starts = useMemo(() => phaseStarts(bands), [bands])

  useStepKeys(cursor, total, seek, playback.toggle)

  for (const [id, side] of [
    [a, sideA],
    [b, sideB],
  ] as const) {
    if (side.run.status === 'error')
      return (
        <ErrorNotice
          what={`open run ${id}`}
          error={side.run.error}
          onRetry={() => void side.run.refetch()}
        />
      )
    if (side.trace.status === 'error' && side.trace.error)
      return <ErrorNotice what={`load the trace of run ${id}`} error={side.trace.error} />
  }
  if (!sideA.done || !sideB.done || !sideA.run.data || !sideB.run.data)
    return <Loading what="both runs (they are still simulating)" minHeight={600} />
  const runA = sideA.run.data
  const runB = sideB.run.data

  return (
    <div className="paired-runs" data-seed={runA.seed}>
      <TransportBar
        step={cursor}
        total={total}
        playback={playback}
        onSeek={seek}
        phases={starts}
        bands={bands}
      />
      <div className="fate-jumps" role="group" aria-label="Jump to the straggler's fate">
        <span className="muted small">
          seed <span className="mono">{runA.seed}</span> · jump to
        </span>
        {fateA.kind === 'retired' && (
          <button type="button" onClick={() => seek(fateA.step)}>
            the retirement (step {fateA.step})
          </button>
        )}
        {fateB.kind === 'cut' && (
          <button type="button" onClick={() => seek(fateB.step)}>
            the cut at token {fateB.tokens ?? 'k'} (step {fateB.step})
          </button>
        )}
        {fateB.kind === 'cut' && fateB.continued !== null && (
          <button type="button" onClick={() => seek(fateB.continued ?? 0)}>
            the continuation (step {fateB.continued})
          </button>
        )}
      </div>
      <div className="pair-grid">
        <DemoRunPanel
          run={runA}
          events={eventsA}
          cursor={cursor}
          mode="whole-request"
          fate={fateA}
          onSeek={seek}
        />
        <DemoRunPanel
          run={runB}
          events={eventsB}
          cursor={cursor}
          mode="generation-safe"
          fate={fateB}
          onSeek={seek}
        />
      </div>
    </div>
  )
}
