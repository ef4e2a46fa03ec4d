import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { resolveRunConfig, runSimulation, simulate } from './simulate.ts'
import { rolloutIds } from './Workload.ts'

const workplace = loadNodeWorkplaceData()
const deps = {
  digest: nodeDigest,
  workplace,
  openDirectory: (id: string) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
}
const result = runSimulation(
  resolveRunConfig({ scenario: 'happy-path', seed: '3', rollouts: 12 }),
  deps,
)
const stepOf = (type: string) => result.events.find((e) => e.type === type)?.step ?? 0

describe('resolveRunConfig', () => {
  it('[config] applies scenario defaults: seed "0", 9 rollouts, the preset deadline and faults', () => {
    const c = resolveRunConfig({ scenario: 'straggler-retirement' })
    expect(c.seed).toBe('0')
    expect(c.rollouts).toBe(9)
    expect(c.deadline_ms).toBe(100)
    expect(c.faults.map((f) => f.kind)).toEqual(['straggler', 'stale_request'])
    expect(resolveRunConfig({ scenario: 'happy-path', seed: 12, faults: [] }).seed).toBe('12')
  })

  it('[config] rollout ids are zero-padded wide enough for the run', () => {
    expect(rolloutIds(9)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'])
    expect(rolloutIds(1000)[0]).toBe('r000')
    expect(rolloutIds(1000)[999]).toBe('r999')
    expect(rolloutIds(11)[10]).toBe('r10')
  })
})

describe('simulate', () => {
  it('[sim] the generator yields every event, numbered from 1, then returns the result', () => {
    const gen = simulate(resolveRunConfig({ scenario: 'happy-path', rollouts: 4 }), deps)
    const seen = []
    let next = gen.next()
    while (next.done !== true) {
      seen.push(next.value)
      next = gen.next()
    }
    expect(seen.map((e) => e.step)).toEqual(seen.map((_, i) => i + 1))
    expect(next.value.events).toEqual(seen)
  })

  it('[sim] participant ids and phases follow docs/protocol.md §12.2', () => {
    const ids = new Set(result.events.flatMap((e) => [e.from, e.to]))
    for (const id of ids)
      expect(id).toMatch(
        /^(controller|policy_model|model_worker_\d+|agent|resources_(blackjack|counter|workplace)|generation_worker|token_store|directory|rollout_.+)$/,
      )
    const phases = [...new Set(result.events.map((e) => e.phase))]
    expect(phases).toEqual(['run', 'prepare', 'commit', 'restore', 'resume', 'continue'])
    expect(result.outcome).toBe('completed')
  })
})

describe('views at any step', () => {
  it('[views] participant cards show fence phase and admission as of the step', () => {
    expect(result.participantsAt(0)).toEqual([])
    const pause = stepOf('model.pause')
    const model = result.participantsAt(pause).find((p) => p.id === 'policy_model')
    expect(model?.phase === 'preparing' || model?.phase === 'prepared').toBe(true)
    expect(model?.admission === 'draining' || model?.admission === 'paused').toBe(true)
    expect(result.participantsAt(pause - 1).find((p) => p.id === 'policy_model')?.admission).toBe(
      'accepting',
    )
    const commit = stepOf('model.commit')
    expect(
      result.participantsAt(commit).find((p) => p.id === 'policy_model')?.manifest_digest,
    ).toMatch(/^[0-9a-f]{64}$/)
  })

  it('[views] sessions appear when bound, are exported at prepare and restored under N+1', () => {
    const prep = stepOf('resources.prepare')
    const exported = result.sessionsAt(prep + 2).filter((s) => s.state === 'exported')
    expect(exported.length).toBeGreaterThan(0)
    const restoreStep = stepOf('agent.resume')
    const restored = result.sessionsAt(restoreStep + 1).filter((s) => s.attempt === 1)
    expect(restored.length).toBeGreaterThan(0)
    const key = restored[0]?.key as string
    const detail = result.sessionDetail(key, restoreStep + 1)
    expect(detail?.prepare).not.toBeNull()
    expect(detail?.session.summary.length).toBeGreaterThan(0)
    expect(result.sessionDetail('nope.a0', 10)).toBeUndefined()
  })

  it('[views] a Workplace session shows its tables with a diff against the prepare snapshot', () => {
    const last = result.events.length
    const wp = result.sessionsAt(last).find((s) => s.environment === 'workplace' && s.attempt === 1)
    expect(wp).toBeDefined()
    const t = result.tables(wp?.key as string, last)
    expect(t?.baseline).toBe('prepare')
    expect(t?.tables.map((x) => x.name)).toContain('crm_data')
    const bj = result.sessionsAt(last).find((s) => s.environment === 'blackjack')
    expect(result.tables(bj?.key as string, last)).toBeUndefined()
  })

  it('[views] lineage marks the first N+1 call as the relay to N, exactly once per continued rollout', () => {
    const lineage = result.lineage(result.events.length)
    const continued = lineage.rollouts.filter((r) =>
      r.attempts.some((a) => a.status === 'continued'),
    )
    expect(continued.length).toBeGreaterThan(0)
    let checked = 0
    for (const r of continued) {
      const next = r.attempts.find((a) => a.attempt === 1)
      const source = r.attempts.find((a) => a.attempt === 0)
      const relays = next?.calls.filter((c) => c.relay) ?? []
      // a source attempt parked right after its start has no committed call to relay
      if ((next?.calls.length ?? 0) === 0 || (source?.calls.length ?? 0) === 0) continue
      expect(relays).toHaveLength(1)
      expect(next?.calls[0]?.relay).toBe(true)
      expect(relays[0]?.parent_call_id).toBe(source?.calls.at(-1)?.model_call_id)
      checked++
    }
    expect(checked).toBeGreaterThan(0)
    expect(result.lineage(0).rollouts).toEqual([])
  })

  it('[views] invariants are known per step', () => {
    expect(result.invariantsAt(0).failures).toEqual([])
    expect(
      Object.values(result.invariantsAt(result.events.length).invariants).every(
        (v) => v === 'pass',
      ),
    ).toBe(true)
  })
})

describe('deadlines at the controller', () => {
  it('[controller.deadline-exceeded] a run whose prepare deadline is already due fails each checkpoint fast with deadline_exceeded and sends no prepare', () => {
    const r = runSimulation(
      resolveRunConfig({ scenario: 'happy-path', seed: '1', rollouts: 6, deadline_ms: 0 }),
      deps,
    )
    const aborts = r.events
      .filter((e) => e.type === 'controller.abort')
      .map((e) => String(e.payload['reason']))
    expect(aborts.length).toBeGreaterThan(0)
    for (const reason of aborts) expect(reason).toMatch(/^deadline_exceeded/)
    expect(
      r.events.filter(
        (e) =>
          e.type === 'agent.prepare' || e.type === 'model.pause' || e.type === 'resources.prepare',
      ),
    ).toEqual([])
    expect(r.checkpoints).toEqual([])
    expect(Object.values(r.invariants).every((v) => v === 'pass')).toBe(true)
  })
})

describe('live views of a running simulation', () => {
  it('[views] while the generator runs, the live result answers every step up to its edge exactly as the finished run does', () => {
    const config = resolveRunConfig({ scenario: 'happy-path', seed: '3', rollouts: 12 })
    let live: ReturnType<typeof runSimulation> | undefined
    const gen = simulate(config, deps, { live: (r) => (live = r) })
    const checked: number[] = []
    const snapshots: {
      step: number
      participants: string
      sessions: string
      lineage: string
      detail: string
    }[] = []
    let n = 0
    for (;;) {
      const next = gen.next()
      if (next.done === true) break
      n++
      if (n % 37 !== 0 || live === undefined) continue
      const edge = live.events.length
      expect(edge).toBe(n - 1)
      const key = live.sessionsAt(edge)[0]?.key ?? ''
      snapshots.push({
        step: edge,
        participants: JSON.stringify(live.participantsAt(edge)),
        sessions: JSON.stringify(live.sessionsAt(edge)),
        lineage: JSON.stringify(live.lineage(edge)),
        detail: JSON.stringify(live.sessionDetail(key, edge) ?? null),
      })
      checked.push(edge)
    }
    expect(checked.length).toBeGreaterThan(3)
    for (const s of snapshots) {
      const key = result.sessionsAt(s.step)[0]?.key ?? ''
      expect(JSON.stringify(result.participantsAt(s.step))).toBe(s.participants)
      expect(JSON.stringify(result.sessionsAt(s.step))).toBe(s.sessions)
      expect(JSON.stringify(result.lineage(s.step))).toBe(s.lineage)
      expect(JSON.stringify(result.sessionDetail(key, s.step) ?? null)).toBe(s.detail)
    }
  })
})
