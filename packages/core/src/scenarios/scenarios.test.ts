import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { SCENARIO_NAMES } from '../contracts/scenarios.ts'
import type { ScenarioName } from '../contracts/scenarios.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import type { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { runScenarioInMemory } from '../testing/runScenarioInMemory.ts'
import { SCENARIOS } from './presets.ts'

const run = (scenario: ScenarioName, seed = '0', rollouts?: number) =>
  runScenarioInMemory(scenario, seed, rollouts)

const types = (r: ReturnType<typeof run>['result'], type: string, outcome?: string) =>
  r.events.filter((e) => e.type === type && (outcome === undefined || e.outcome === outcome))

describe('scenario presets', () => {
  it('[scenarios] every preset has a title and a one-paragraph narrative', () => {
    expect(SCENARIOS.map((s) => s.name)).toEqual([...SCENARIO_NAMES])
    for (const s of SCENARIOS) {
      expect(s.title.length).toBeGreaterThan(3)
      expect(s.narrative.length).toBeGreaterThan(100)
      expect(s.narrative).not.toContain('\n')
    }
  })

  for (const name of SCENARIO_NAMES) {
    it(`[scenarios] ${name} keeps every invariant and publishes a valid checkpoint`, () => {
      const { result, dirs } = run(name)
      expect(result.failures).toEqual([])
      expect(result.outcome).toBe('completed')
      const valid = result.checkpoints.filter((c) => !c.damaged)
      expect(valid.length).toBeGreaterThan(0)
      for (const c of valid) {
        const report = verifyCheckpoint(
          dirs.get(c.checkpoint_id) as MemoryCheckpointDirectory,
          nodeDigest,
        )
        expect(report.problems).toEqual([])
      }
    })
  }

  it('[controller.straggler-sacrifice] [straggler-retirement] the straggler is retired on all three participants, tombstoned, redispatched fresh and its stale request refused', () => {
    const { result } = run('straggler-retirement')
    expect(types(result, 'model.abort_inflight', 'ok').map((e) => e.payload['rollout_id'])).toEqual(
      ['r0'],
    )
    expect(types(result, 'agent.retire', 'ok').map((e) => e.payload['rollout_id'])).toEqual(['r0'])
    expect(types(result, 'resources.retire', 'ok').map((e) => e.to)).toEqual([
      'resources_blackjack',
    ])
    const redispatch = types(result, 'run.dispatch', 'ok').filter(
      (e) => e.payload['rollout_id'] === 'r0' && e.payload['attempt_index'] === 1,
    )
    expect(redispatch).toHaveLength(1)
    expect(redispatch[0]?.payload['continued']).toBe(false)
    const stale = types(result, 'model.request').filter((e) => e.from === 'rollout_r0')
    expect(stale.map((e) => e.outcome)).toEqual(['stale_attempt'])
  })

  it('[controller.restore-reads-aggregate] [corrupt-snapshot] restore refuses naming the file before any participant restores, and the retaken checkpoint restores', () => {
    const { result, dirs } = run('corrupt-snapshot')
    // The controller verifies checkpoint.json and the aggregate manifest first: the flipped byte is
    // a digest mismatch there, so no participant is asked to restore the damaged checkpoint.
    const abandoned = types(result, 'controller.restore_abandoned')
    expect(abandoned).toHaveLength(1)
    expect(String(abandoned[0]?.payload['reason'])).toMatch(
      /digest_mismatch at resources\/\w+\/r\d\.a0\.json/,
    )
    const restores = result.events.filter(
      (e) => e.type.endsWith('.restore') && e.payload['checkpoint_id'] === 'ck-1',
    )
    expect(restores).toEqual([])
    expect(result.checkpoints.map((c) => [c.checkpoint_id, c.damaged])).toEqual([
      ['ck-1', true],
      ['ck-2', false],
    ])
    expect(verifyCheckpoint(dirs.get('ck-1') as MemoryCheckpointDirectory, nodeDigest).valid).toBe(
      false,
    )
  })

  it('[crash-during-commit] the k-th write crashes, the controller retries the commit and the directory verifies', () => {
    const { result, dirs } = run('crash-during-commit')
    const writes = types(result, 'directory.write')
    expect(writes[2]?.outcome).toBe('internal_error')
    expect(writes.filter((e) => e.outcome !== 'ok')).toHaveLength(1)
    const commits = types(result, 'agent.commit')
    expect(commits.map((e) => [e.outcome, e.payload['attempt']])).toEqual([
      ['agent_checkpoint_error', 1],
      ['ok', 2],
    ])
    const paths = writes.filter((e) => e.outcome === 'ok').map((e) => String(e.payload['path']))
    expect(paths.slice(-3)).toEqual([
      'nemo_gym_checkpoint_manifest.json',
      'token-store/manifest.json',
      'checkpoint.json',
    ])
    expect(
      verifyCheckpoint(dirs.get('ck-1') as MemoryCheckpointDirectory, nodeDigest).problems,
    ).toEqual([])
  })

  it('[coordinator.missing-workers] [coordinator.registration-rejected] [controller.prepare-incomplete] [two-worker-admission] a missing worker is missing_workers, the prepare is prepare_incomplete, its rejoin is rejected while closed, the retaken checkpoint pauses with both acks', () => {
    const { result } = run('two-worker-admission')
    expect(types(result, 'model.status', 'missing_workers')).toHaveLength(1)
    expect(types(result, 'controller.abort').map((e) => e.payload['reason'])).toEqual([
      'prepare_incomplete: missing_workers',
    ])
    const registers = types(result, 'model.worker_register').map((e) => e.outcome)
    expect(registers).toEqual(['worker_registration_rejected', 'ok'])
    const acks = types(result, 'model.worker_ack').map((e) => [e.payload['checkpoint_id'], e.from])
    expect(acks).toEqual([
      ['ck-1', 'model_worker_0'],
      ['ck-2', 'model_worker_0'],
      ['ck-2', 'model_worker_1'],
    ])
    expect(result.checkpoints.map((c) => c.checkpoint_id)).toEqual(['ck-2'])
  })

  it('[controller.acks-before-prepare] [receipt.batch-all-or-nothing] [receipt.idempotent-replay] [controller.release-exact-receipt] [receipt-replay] a bad batch releases nothing, the exact receipt acknowledges before prepare, its replay is idempotent', () => {
    const { result } = run('receipt-replay')
    const acks = types(result, 'agent.acknowledge').filter((e) => e.phase === 'prepare')
    expect(acks.map((e) => [e.outcome, e.payload['idempotent']])).toEqual([
      ['completed_execution_acknowledgement_error', 0],
      ['ok', 0],
      ['ok', 1],
    ])
    // SC step 2: the exact receipts are acknowledged before the agent is asked to prepare.
    const firstPrepare = result.events.findIndex((e) => e.type === 'agent.prepare')
    expect(
      result.events.findIndex((e) => e.type === 'agent.acknowledge' && e.phase === 'prepare'),
    ).toBeLessThan(firstPrepare)
    expect(types(result, 'agent.prepare')[0]?.payload['result']).toMatchObject({
      completed_unacknowledged: 0,
    })
  })

  it('[receipt-replay] the unacked_result fault takes effect for every seed: the checkpoint waits until the rollout completed', () => {
    for (let seed = 0; seed < 100; seed++) {
      const { result } = run('receipt-replay', String(seed * 104_729), 2 + (seed % 3))
      const acks = types(result, 'agent.acknowledge').filter((e) => e.phase === 'prepare')
      const first = acks[0]?.payload['receipts'] as { rollout_id: string }[] | undefined
      const seen = {
        seed,
        batch: first?.map((x) => x.rollout_id),
        outcomes: acks.slice(0, 3).map((e) => [e.outcome, e.payload['idempotent']]),
        prepared: types(result, 'agent.prepare')[0]?.payload['result'],
      }
      expect(seen).toMatchObject({
        seed,
        batch: expect.arrayContaining(['r0']),
        outcomes: [
          ['completed_execution_acknowledgement_error', 0],
          ['ok', 0],
          ['ok', 1],
        ],
        prepared: { completed_unacknowledged: 0 },
      })
      expect(result.outcome).toBe('completed')
    }
  })

  it('[agent.restore-race] [restore-race] two /run claims of one restored continuation: the second is duplicate_execution', () => {
    const { result } = run('restore-race')
    const claims = types(result, 'run.dispatch').filter(
      (e) => e.payload['rollout_id'] === 'r1' && e.payload['attempt_index'] === 1,
    )
    expect(claims.map((e) => e.outcome)).toEqual(['ok', 'duplicate_execution'])
    expect(claims[0]?.payload['continued']).toBe(true)
  })

  it('[fence.stale-attempt-everywhere] [stale-attempt-fenced] delayed attempt-N requests are refused by the model, the agent and the resources server', () => {
    const { result } = run('stale-attempt-fenced')
    const stale = result.events.filter((e) => e.from === 'rollout_r1')
    expect(stale.map((e) => [e.to, e.outcome])).toEqual([
      ['policy_model', 'stale_attempt'],
      ['agent', 'stale_attempt'],
      ['resources_counter', 'stale_attempt'],
    ])
  })

  it('[controller.commit-order] [controller.publish-last] [commit-order] agents → model → resources → aggregate → token store → checkpoint.json', () => {
    const { result } = run('happy-path')
    const order = result.events
      .filter(
        (e) =>
          e.phase === 'commit' && e.type !== 'directory.write' && e.type !== 'directory.verify',
      )
      .map((e) => `${e.type}:${e.to}`)
    expect(order).toEqual([
      'agent.commit:agent',
      'model.commit:policy_model',
      'resources.commit:resources_blackjack',
      'resources.commit:resources_counter',
      'resources.commit:resources_workplace',
      'token_store.snapshot:token_store',
    ])
    const resume = result.events.filter((e) => e.phase === 'resume').map((e) => e.to)
    expect(resume).toEqual([
      'policy_model',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
      'agent',
    ])
  })
})
