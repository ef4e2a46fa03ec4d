import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { ScenarioName } from '../contracts/scenarios.ts'
import type { LineageView, ParticipantView, SessionRow, TableView } from '../contracts/views.ts'
import { diffSummary, diffTables } from '../environments/workplace/diffTables.ts'
import type { Table } from '../environments/workplace/Table.ts'
import { parseWorkplaceBase } from '../environments/workplace/WorkplaceData.ts'
import type { WorkplaceSession } from '../environments/workplace/WorkplaceSession.ts'
import { sessionTables } from '../environments/workplace/WorkplaceSession.ts'
import { createWorkplaceServer } from '../environments/workplace/workplaceServer.ts'
import { PyRandom } from '../rng/PyRandom.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { changedRows } from './changedRows.ts'
import { cardView } from './participantView.ts'
import type { Recorder } from './Recorder.ts'
import { resolveRunConfig, runSimulation } from './simulate.ts'
import type { SimulatorOptions } from './SimulatorOptions.ts'
import type { RolloutOutcome } from './RolloutOutcome.ts'
import { sameOutcome } from './RolloutOutcome.ts'
import { canonicalJson } from '../json.ts'
import { Simulator } from './Simulator.ts'
import { defaultEnvFactory } from './World.ts'

const data = loadNodeWorkplaceData()
const base = parseWorkplaceBase(data, nodeDigest)
const envs = defaultEnvFactory(() => createWorkplaceServer(base) as never)
const codec = createWorkplaceServer(base).codec
const memory = (id: string) => new MemoryCheckpointDirectory({ location: `mem://${id}` })

/** A second, independent run of the same config: the same seed records the same histories. */
function referenceRun(scenario: ScenarioName, seed: string, rollouts: number): Simulator {
  const sim = new Simulator(resolveRunConfig({ scenario, seed, rollouts }), {
    digest: nodeDigest,
    openDirectory: memory,
    envs,
    workplaceExamples: base.examples,
    checkpoint: true,
    record: true,
  })
  for (const _ of sim.run()) void _
  return sim
}

// The slow reference views: the straightforward computations the fast paths replace (the codec's
// own describe, memoised per session object only to keep the test fast).
const described = new WeakMap<object, string>()
const describeOnce = (sim: Simulator, row: SessionRow, s: object): string => {
  let text = described.get(s)
  if (text === undefined) {
    text = sim.world.resources[row.environment].env.codec.describe(s)
    described.set(s, text)
  }
  return text
}

function slowSessions(sim: Simulator, step: number): SessionRow[] {
  const out: SessionRow[] = []
  for (const [, h] of sim.recorder.sessions) {
    const v = h.at(step)
    if (v === undefined) continue
    const s = v.session
    const summary =
      v.row.summary !== '' || s === undefined || s === null || typeof s !== 'object'
        ? v.row.summary
        : describeOnce(sim, v.row, s)
    out.push({ ...v.row, summary })
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/**
 * The Tables view computed afresh: the session's tables diffed against its prepare snapshot (or the
 * base).
 */
function slowTables(
  sim: Simulator,
  key: string,
  step: number,
): { tables: TableView[]; summary: unknown } | undefined {
  const v = sim.recorder.sessions.get(key)?.at(step)
  if (v === undefined || v.session === undefined || v.row.environment !== 'workplace')
    return undefined
  const at = key.lastIndexOf('.a')
  const own = sim.recorder.prepared.get(key)
  const source =
    own ?? sim.recorder.prepared.get(`${key.slice(0, at)}.a${Number(key.slice(at + 2)) - 1}`)
  const snapshot = source !== undefined && source.step <= step ? source.state : null
  const restored = snapshot === null ? undefined : codec.restoreState(snapshot)
  const before = restored?.ok === true ? sessionTables(base, restored.value) : base.tables
  const tables = diffTables(before, sessionTables(base, v.session as WorkplaceSession))
  return { tables, summary: diffSummary(tables) }
}

function slowLineage(rec: Recorder, step: number): LineageView {
  const rollouts: LineageView['rollouts'][number][] = []
  for (const rolloutId of [...rec.attemptOrder.keys()].sort()) {
    const attempts: LineageView['rollouts'][number]['attempts'][number][] = []
    for (const attempt of rec.attemptOrder.get(rolloutId) ?? []) {
      const key = `${rolloutId}.a${attempt}`
      const status = rec.attemptStatus.get(key)?.at(step)
      if (status === undefined) continue
      attempts.push({
        attempt,
        status,
        calls: (rec.calls.get(key) ?? []).filter((c) => c.step <= step),
      })
    }
    if (attempts.length > 0)
      rollouts.push({
        rollout_id: rolloutId,
        environment: rec.rolloutEnv.get(rolloutId) ?? 'blackjack',
        attempts,
      })
  }
  return { rollouts }
}

function slowParticipants(rec: Recorder, step: number): ParticipantView[] {
  return rec.participantOrder.flatMap((id) => {
    const v = rec.participants.get(id)?.at(step)
    return v === undefined ? [] : [cardView(v)]
  })
}

describe('views', () => {
  it.each([
    ['happy-path', '3', 12],
    ['straggler-retirement', '5', 9],
    ['corrupt-snapshot', '1', 6],
  ] as const)(
    '[views] %s: sessions, participants, lineage and tables equal the slow reference computation at every step',
    (scenario, seed, rollouts) => {
      const result = runSimulation(resolveRunConfig({ scenario, seed, rollouts }), {
        digest: nodeDigest,
        workplace: data,
        openDirectory: memory,
      })
      const ref = referenceRun(scenario, seed, rollouts)
      expect(ref.recorder.events).toEqual(result.events)
      let workplaceRows = 0
      // The Tables view (whole tables, diffed) is compared at about eight steps, to keep the test
      // short.
      const tableEvery = 5 * Math.ceil(result.events.length / 40)
      for (let step = 0; step <= result.events.length; step++) {
        const rows = result.sessionsAt(step)
        expect(rows).toEqual(slowSessions(ref, step))
        workplaceRows += rows.filter(
          (r) => r.environment === 'workplace' && r.summary.endsWith('changed'),
        ).length
        expect(result.participantsAt(step)).toEqual(slowParticipants(ref.recorder, step))
        expect(result.lineage(step)).toEqual(slowLineage(ref.recorder, step))
        if (step % 5 !== 0) continue
        for (const row of rows) {
          expect(result.sessionDetail(row.key, step)?.session).toEqual(row)
          if (step % tableEvery !== 0) continue
          const tables = result.tables(row.key, step)
          expect(
            tables === undefined ? undefined : { tables: tables.tables, summary: tables.summary },
          ).toEqual(slowTables(ref, row.key, step))
        }
      }
      // Workplace summaries were really exercised (the counted path, not only blackjack/counter).
      expect(workplaceRows).toBeGreaterThan(0)
      // Asked again (out of order), a view answers the same.
      expect(result.sessionsAt(1)).toEqual(slowSessions(ref, 1))
    },
  )

  it('[equivalence] a continued rollout ends the same in a baseline of every rollout as in one of only the continued rollouts', () => {
    for (const [scenario, seed] of [
      ['happy-path', '2'],
      ['straggler-retirement', '4'],
      ['restore-race', '7'],
    ] as const) {
      const config = resolveRunConfig({ scenario, seed, rollouts: 9 })
      const main = referenceRun(scenario, seed, 9)
      expect(main.continued.size).toBeGreaterThan(0)
      const opts: SimulatorOptions = {
        digest: nodeDigest,
        openDirectory: memory,
        envs,
        workplaceExamples: base.examples,
        checkpoint: false,
        record: false,
      }
      const all = new Simulator(config, opts)
      for (const _ of all.run()) void _
      const only = new Simulator(config, { ...opts, only: main.continued })
      for (const _ of only.run()) void _
      for (const id of main.continued) {
        const a = all.outcomes.get(id)
        const b = only.outcomes.get(id)
        // The canonical JSON of the whole outcome is the definition; `sameOutcome` (what `simulate`
        // judges with) must agree.
        expect(a !== undefined && b !== undefined && outcomeText(a) === outcomeText(b)).toBe(true)
        expect(a !== undefined && b !== undefined && sameOutcome(a, b)).toBe(true)
      }
    }
  })
})

describe('changedRows', () => {
  const columns = ['id', 'name', 'amount']
  /**
   * A random edit of `t`: set a cell, append (relabelled or with a duplicate label), drop rows,
   * reorder columns.
   */
  function edit(t: Table, rng: PyRandom): Table {
    const n = t.rows.length
    switch (rng.randbelow(5)) {
      case 0: {
        const i = rng.randbelow(Math.max(1, n))
        return {
          columns: t.columns,
          labels: t.labels,
          rows: t.rows.map((r, k) =>
            k === i ? r.map((c, j) => (j === 2 ? `${String(c)}x` : c)) : r,
          ),
        }
      }
      case 1:
        return {
          columns: t.columns,
          labels: [...t.labels, rng.randbelow(2) === 0 ? 0 : n],
          rows: [...t.rows, t.columns.map((c) => `${c}${n}`)],
        }
      case 2: {
        const drop = rng.randbelow(3)
        return {
          columns: t.columns,
          labels: t.labels.filter((_, k) => k % 3 !== drop),
          rows: t.rows.filter((_, k) => k % 3 !== drop),
        }
      }
      case 3: {
        const order = [2, 0, 1]
        return {
          columns: order.map((k) => t.columns[k] as string),
          labels: t.labels,
          rows: t.rows.map((r) => order.map((k) => r[k] ?? null)),
        }
      }
      default:
        // equal rows, new identities
        return { columns: t.columns, labels: t.labels, rows: t.rows.map((r) => [...r]) }
    }
  }

  it('[summary] counts exactly the rows diffTables reports added, removed or changed; identity shortcuts change no diff', () => {
    for (let seed = 0; seed < 300; seed++) {
      const rng = PyRandom.fromSeed(BigInt(seed))
      const size = rng.randbelow(8)
      const before: Table = {
        columns,
        labels: Array.from({ length: size }, (_, i) => (rng.randbelow(4) === 0 ? 0 : i)),
        rows: Array.from({ length: size }, (_, i) => [String(i), `n${i}`, i * 10]),
      }
      let current = before
      for (let k = rng.randbelow(4); k >= 0; k--) current = edit(current, rng)
      const reference = diffTables({ t: before }, { t: current })
      const { added, removed, changed } = diffSummary(reference)
      expect(changedRows(before, current)).toBe(added + removed + changed)
      // The same tables with every row, label list and column list copied: no shortcut applies.
      const copy = (t: Table): Table => ({
        columns: [...t.columns],
        labels: [...t.labels],
        rows: t.rows.map((r) => [...r]),
      })
      expect(diffTables({ t: copy(before) }, { t: copy(current) })).toEqual(reference)
    }
  })
})

/** An outcome's canonical JSON: equal texts are the definition of equivalent outcomes. */
function outcomeText(o: RolloutOutcome): string {
  return canonicalJson({
    reward: o.reward,
    outputs: o.outputs,
    env_outputs: o.env_outputs,
    final_state: o.finalState(),
  })
}
