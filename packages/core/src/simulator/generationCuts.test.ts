import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import type { BugName } from '../contracts/bugs.ts'
import { CUT_BUG_NAMES } from '../contracts/bugs.ts'
import { SCENARIO_NAMES } from '../contracts/scenarios.ts'
import { bugInfo } from '../scenarios/bugCatalogue.ts'
import type { ControllerTestOptions } from '../controller/Controller.ts'
import type { Fault, ScenarioName } from '../contracts/scenarios.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import { encodeJsonFile, parseJsonFile } from '../directory/jsonFile.ts'
import { TOKEN_STORE_MANIFEST_PATH, tokenSegmentPath } from '../directory/layout.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { generationTokenIds } from '../protocol/generationTokens.ts'
import { PolicyModel } from '../protocol/PolicyModel.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { checkFaults } from './checkFaults.ts'
import { resolveRunConfig, runSimulation } from './simulate.ts'

const workplace = loadNodeWorkplaceData()

const run = (
  scenario: ScenarioName,
  seed = '0',
  extra: {
    bug?: BugName
    faults?: readonly Fault[]
    rollouts?: number
    test?: ControllerTestOptions
  } = {},
) => {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const result = runSimulation(
    resolveRunConfig({
      scenario,
      seed,
      ...(extra.bug === undefined ? {} : { bug: extra.bug }),
      ...(extra.faults === undefined ? {} : { faults: [...extra.faults] }),
      ...(extra.rollouts === undefined ? {} : { rollouts: extra.rollouts }),
    }),
    {
      digest: nodeDigest,
      workplace,
      openDirectory: (id) => {
        const d = dirs.get(id) ?? new MemoryCheckpointDirectory({ location: `mem://${id}` })
        dirs.set(id, d)
        return d
      },
    },
    extra.test === undefined ? {} : { test: extra.test },
  )
  return { result, dirs }
}

const ofType = <T extends TraceEvent['type']>(events: readonly TraceEvent[], type: T) =>
  events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type)

describe('generation-safe cuts (docs/protocol.md §11)', () => {
  it('[cut_mode] whole-request stays the default and leaves the run config as it was', () => {
    const config = resolveRunConfig({ scenario: 'happy-path', seed: 0 })
    expect('cut_mode' in config).toBe(false)
    expect(resolveRunConfig({ scenario: 'generation-safe-cut' }).cut_mode).toBe('generation-safe')
    expect(
      resolveRunConfig({ scenario: 'generation-safe-cut', cut_mode: 'whole-request' }).cut_mode,
    ).toBe('whole-request')
    expect(resolveRunConfig({ scenario: 'happy-path', bug: 'ack-before-durable' }).cut_mode).toBe(
      'generation-safe',
    )
  })

  it('[cut_mode] a cut fault in a whole-request run is refused, naming cut_mode', () => {
    const config = resolveRunConfig({
      scenario: 'happy-path',
      faults: [{ kind: 'cut_stage_failure', rollout: 0 }],
    })
    const checked = checkFaults(config)
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.error.message).toContain('cut_mode')
    expect(
      checkFaults(
        resolveRunConfig({
          scenario: 'generation-safe-cut',
          faults: [{ kind: 'cut_stage_failure', rollout: 0 }],
        }),
      ).ok,
    ).toBe(true)
    expect(
      checkFaults(
        resolveRunConfig({
          scenario: 'happy-path',
          bug: 'overlapping-cut-buffers',
          cut_mode: 'whole-request',
        }),
      ).ok,
    ).toBe(false)
    expect(
      checkFaults(resolveRunConfig({ scenario: 'happy-path', bug: 'overlapping-cut-buffers' })).ok,
    ).toBe(true)
  })

  it('[model.generation-safe-cuts] the straggler of generation-safe-cut is cut at token k, not retired, and continues under N+1 from k to the uninterrupted tokens', () => {
    const { result } = run('generation-safe-cut')
    expect(ofType(result.events, 'model.abort_inflight')).toEqual([])
    expect(ofType(result.events, 'rollout.retired')).toEqual([])
    const ack = ofType(result.events, 'generation.cut_ack')[0]
    expect(ack?.payload).toMatchObject({
      rollout_id: 'r0',
      attempt_index: 0,
      disposition: 'durable_prefix',
      cut_kind: 'active_prefix',
    })
    const cont = ofType(result.events, 'generation.continue')[0]
    expect(cont?.payload).toMatchObject({
      rollout_id: 'r0',
      attempt_index: 1,
      cut_model_call_id: ack?.payload.model_call_id,
      prefix_token_count: ack?.payload.prefix_token_count,
      resume_from: ack?.payload.prefix_token_count,
      prefix_delivery: 'staged',
    })
    // Its final output: prefix + continuation, exactly the tokens of the call never interrupted.
    const coords = ofType(result.events, 'generation.coordinates').find(
      (e) => e.payload.model_call_id === cont?.payload.model_call_id,
    )
    expect(coords?.payload.delta_len).toBe(
      (cont?.payload.prefix_token_count ?? 0) + (cont?.payload.continuation_token_count ?? 0),
    )
    // The rollout ends exactly as without the checkpoint (equivalence), and every invariant holds.
    expect(result.failures).toEqual([])
    expect(result.outcome).toBe('completed')
    expect(
      ofType(result.events, 'run.complete').find((e) => e.payload.rollout_id === 'r0')?.payload
        .attempt_index,
    ).toBe(1)
  })

  it('[model.generation-safe-cuts] over 100 seeds (nine rollouts each) the straggler of generation-safe-cut is cut and continued, never retired, and every invariant passes', () => {
    const bad: string[] = []
    for (let seed = 0; seed < 100; seed++) {
      const { result } = run('generation-safe-cut', String(seed * 7919))
      const cut = ofType(result.events, 'generation.cut_ack').some(
        (e) => e.payload.rollout_id === 'r0' && e.payload.disposition === 'durable_prefix',
      )
      const continued = ofType(result.events, 'generation.continue').some(
        (e) => e.payload.rollout_id === 'r0',
      )
      const retired = ofType(result.events, 'rollout.retired').length > 0
      if (
        !cut ||
        !continued ||
        retired ||
        result.failures.length > 0 ||
        result.outcome !== 'completed'
      )
        bad.push(
          `${seed}: cut ${cut} continued ${continued} retired ${retired} ${JSON.stringify(result.failures)}`,
        )
    }
    expect(bad).toEqual([])
  })

  for (const scenario of [
    'completed-before-egress',
    'constrained-decoding-excluded',
    'cut-stage-failure',
    'corrupt-prefix-segment',
    'cut-restore-race',
  ] as const)
    it(`[model.generation-safe-cuts] over 100 seeds (nine rollouts each) ${scenario} passes every invariant and completes (with a cut)`, () => {
      const bad: string[] = []
      for (let seed = 0; seed < 100; seed++) {
        const { result } = run(scenario, String(seed * 7919))
        // completed-before-egress's straggler is only a little late: on some seeds it is already
        // past its call at the deadline (in an env step), and is retired as in whole-request mode.
        const cut =
          scenario === 'completed-before-egress' ||
          ofType(result.events, 'generation.cut_ack').length > 0
        if (result.failures.length > 0 || result.outcome !== 'completed' || !cut)
          bad.push(
            `${seed}: ${result.outcome} ${JSON.stringify(result.failures)} ${JSON.stringify(result.inert_faults)}`,
          )
      }
      expect(bad).toEqual([])
    })

  it('[token-partition] the same straggler is sacrificed in whole-request mode (straggler-retirement)', () => {
    const { result } = run('straggler-retirement')
    expect(ofType(result.events, 'rollout.retired').map((e) => e.payload.rollout_id)).toEqual([
      'r0',
    ])
    expect(ofType(result.events, 'generation.cut')).toEqual([])
  })

  it('[token-partition] token ids are a pure function of (seed, rollout, call, position)', () => {
    const whole = generationTokenIds('7', 'r0', 2, 0, 50)
    expect([
      ...generationTokenIds('7', 'r0', 2, 0, 20),
      ...generationTokenIds('7', 'r0', 2, 20, 50),
    ]).toEqual(whole)
    expect(generationTokenIds('8', 'r0', 2, 0, 50)).not.toEqual(whole)
  })

  it('[durable-before-ack] every durable_prefix acknowledgement follows its durable stage, and the model pauses with the aggregated proof', () => {
    const { result } = run('cut-restore-race')
    const steps = result.events.map((e) => e.type)
    const stage = steps.indexOf('token.stage_prefix')
    const ack = steps.indexOf('generation.cut_ack')
    expect(stage).toBeGreaterThan(0)
    expect(ack).toBeGreaterThan(stage)
    const paused = ofType(result.events, 'model.status').find(
      (e) =>
        typeof e.payload.result === 'object' &&
        e.payload.result !== null &&
        !Array.isArray(e.payload.result) &&
        e.payload.result['generation_cut_proof'] !== undefined,
    )
    expect(paused?.payload.result).toMatchObject({
      state: 'paused',
      generation_cut_proof: { workers: [0, 1] },
    })
    const commit = ofType(result.events, 'model.commit').find((e) => e.outcome === 'ok')
    expect(commit?.payload.result).toMatchObject({ generation_cut_records: 1 })
  })

  it('[model.generation-safe-cuts] a call that finishes during the cut is held by the fence and acknowledged terminal_completion; N+1 gets it inline from custody', () => {
    const { result } = run('completed-before-egress')
    const ack = ofType(result.events, 'generation.cut_ack')[0]
    expect(ack?.payload).toMatchObject({
      disposition: 'completed_durable',
      cut_kind: 'terminal_completion',
    })
    const fenced = ofType(result.events, 'model.egress_fenced')[0]
    const released = ofType(result.events, 'model.egress_released')[0]
    expect(fenced?.payload.model_call_id).toBe(ack?.payload.model_call_id)
    expect(released?.payload).toMatchObject({
      model_call_id: ack?.payload.model_call_id,
      disposition: 'committed',
      delivered: false,
    })
    expect(
      ofType(result.events, 'model.response').filter(
        (e) => e.payload.model_call_id === ack?.payload.model_call_id,
      ),
    ).toEqual([])
    expect(ofType(result.events, 'generation.continue')[0]?.payload).toMatchObject({
      prefix_delivery: 'inline',
      continuation_token_count: 0,
    })
    expect(result.failures).toEqual([])
  })

  it('[model.generation-safe-cuts] constrained decoding is excluded and a failed stage is durable_failure: both regenerate from their input', () => {
    for (const [scenario, disposition] of [
      ['constrained-decoding-excluded', 'excluded'],
      ['cut-stage-failure', 'durable_failure'],
    ] as const) {
      const { result } = run(scenario)
      expect(ofType(result.events, 'generation.cut_ack')[0]?.payload.disposition).toBe(disposition)
      expect(ofType(result.events, 'generation.continue')).toEqual([])
      expect(result.failures).toEqual([])
      expect(result.inert_faults).toEqual([])
    }
  })

  it('[model.generation-safe-cuts] [restore.verifies-everything] a corrupt segment refuses the restore before any participant restores, naming the file; the retaken checkpoint restores', () => {
    const { result } = run('corrupt-prefix-segment')
    const abandoned = ofType(result.events, 'controller.restore_abandoned')
    expect(abandoned).toHaveLength(1)
    const reason = String(abandoned[0]?.payload.reason)
    expect(reason).toContain('segment_mismatch')
    expect(reason).toContain('token-store/segments/policy-call-000001.seg-0.json')
    // The controller's verification refused ck-1: no participant was asked to restore it.
    const restores = result.events.filter(
      (e) => e.type.endsWith('.restore') && e.payload['checkpoint_id'] === 'ck-1',
    )
    expect(restores).toEqual([])
    expect(result.checkpoints.map((c) => c.damaged)).toEqual([true, false])
    expect(result.failures).toEqual([])
  })

  it("[model.generation-safe-cuts] a missing or corrupt segment refuses the policy model's own restore before anything is installed", () => {
    const { dirs } = run('generation-safe-cut')
    const dir = (dirs.get('ck-1') as MemoryCheckpointDirectory).reopen()
    dir.remove(tokenSegmentPath('policy-call-000001', 0))
    const model = new PolicyModel(nodeDigest, {
      serverName: 'policy',
      restoreExpected: true,
      generation: 1,
    })
    const restored = model.restore('ck-1', dir)
    expect(restored.ok ? null : restored.error.code).toBe('restored_cut_segment_missing')
    expect(restored.ok ? '' : restored.error.message).toContain('tq/policy-call-000001/seg-0')
    expect(model.tombstones()).toEqual([])
    expect(model.ledgerRows()).toEqual([])
    expect(model.admission).toBe('restore_failed_paused')
    // A controller that does not verify the directory first (the real NeMo-RL one): the model's own
    // check refuses a corrupt segment too, naming it.
    const corrupt = (dirs.get('ck-1') as MemoryCheckpointDirectory).reopen()
    corrupt.flipByte(tokenSegmentPath('policy-call-000001', 0), 1)
    const fresh = new PolicyModel(nodeDigest, {
      serverName: 'policy',
      restoreExpected: true,
      generation: 1,
    })
    const refused = fresh.restore('ck-1', corrupt)
    expect(refused.ok ? null : refused.error.code).toBe('restored_cut_digest_mismatch')
    expect(refused.ok ? '' : refused.error.message).toContain(
      tokenSegmentPath('policy-call-000001', 0),
    )
    expect(fresh.ledgerRows()).toEqual([])
  })

  it('[coordinator.cut-leases] a second claimant of a restored cut is refused, a late one finds it consumed', () => {
    const { result } = run('cut-restore-race')
    expect(ofType(result.events, 'generation.claim_cut').map((e) => [e.from, e.outcome])).toEqual([
      ['model_worker_0', 'ok'],
      ['model_worker_1', 'restored_cut_already_owned'],
      ['model_worker_1', 'restored_cut_consumed'],
    ])
    expect(ofType(result.events, 'generation.continue')).toHaveLength(1)
    expect(result.failures).toEqual([])
  })

  it('[segment_mismatch] cutover verify checks segment files against the token-store manifest', () => {
    const { dirs } = run('generation-safe-cut')
    const dir = dirs.get('ck-1') as MemoryCheckpointDirectory
    expect(verifyCheckpoint(dir, nodeDigest)).toEqual({
      valid: true,
      problems: [],
      publisher: 'cutover',
    })
    const path = tokenSegmentPath('policy-call-000001', 0)
    expect(dir.readFile(path)).toBeDefined()
    // Changed bytes.
    const bytes = dir.readFile(path) as Uint8Array
    const changed = dir.reopen()
    changed.putRaw(path, encodeJsonFile([1, 2, 3]))
    expect(
      verifyCheckpoint(changed, nodeDigest).problems.map((p) => [p.code, p.path]),
    ).toContainEqual(['segment_mismatch', path])
    // A changed digest in the manifest (the file untouched).
    const relisted = dir.reopen()
    relisted.putRaw(path, bytes)
    const parsed = parseJsonFile(relisted.readFile(TOKEN_STORE_MANIFEST_PATH) as Uint8Array)
    if (!parsed.ok) throw new Error(parsed.error)
    const manifest = parsed.value as { segments: Record<string, { sha256: string }> }
    ;(manifest.segments[path] as { sha256: string }).sha256 = '0'.repeat(64)
    relisted.putRaw(TOKEN_STORE_MANIFEST_PATH, encodeJsonFile(manifest))
    const codes = verifyCheckpoint(relisted, nodeDigest).problems.map((p) => [p.code, p.path])
    expect(codes).toContainEqual(['segment_mismatch', path])
  })

  it('[token-partition] teaching bugs fail their invariant at the step of the broken message', () => {
    const cases: readonly [BugName, ScenarioName, string, TraceEvent['type']][] = [
      ['ack-before-durable', 'generation-safe-cut', 'durable-before-ack', 'generation.cut_ack'],
      ['egress-unfenced', 'completed-before-egress', 'egress-fenced', 'model.response'],
      ['overlapping-cut-buffers', 'generation-safe-cut', 'token-partition', 'generation.continue'],
    ]
    for (const [bug, scenario, invariant, type] of cases) {
      const { result } = run(scenario, '0', { bug })
      const failure = result.failures.find((f) => f.id === invariant)
      expect(failure, bug).toBeDefined()
      expect(result.events[(failure?.step ?? 0) - 1]?.type, bug).toBe(type)
    }
  })

  it('[egress-fenced] each cut teaching bug fails its invariant on the scenarios its catalogue entry lists, and on no other generation-safe scenario', () => {
    const bad: string[] = []
    for (const bug of CUT_BUG_NAMES) {
      const info = bugInfo(bug)
      for (const scenario of SCENARIO_NAMES) {
        if (
          resolveRunConfig({ scenario }).cut_mode !== 'generation-safe' &&
          !(info.scenarios ?? []).includes(scenario)
        )
          continue
        // A listed scenario shows it on some seed of 40 (stopping at the first); an unlisted one on
        // none of 12.
        const listed = (info.scenarios ?? []).includes(scenario)
        let failing = 0
        for (let seed = 0; seed < (listed ? 40 : 12) && !(listed && failing > 0); seed++)
          if (
            run(scenario, String(seed * 7919), { bug }).result.failures.some(
              (f) => f.id === info.invariant,
            )
          )
            failing++
        if (listed ? failing === 0 : failing > 0)
          bad.push(
            `${bug} on ${scenario}: ${failing} seed(s) fail ${info.invariant}${listed ? '' : ' (not listed)'}`,
          )
      }
    }
    expect(bad).toEqual([])
  })

  it('[egress-fenced] egress-unfenced where the unfenced response lets the checkpoint commit before the workers are asked to cut: no cut request is sent after the fence lifted, the run ends and egress-fenced fails', () => {
    const { result } = run('completed-before-egress', '47514', { bug: 'egress-unfenced' })
    expect(result.failures.map((f) => f.id)).toContain('egress-fenced')
    expect(ofType(result.events, 'generation.cut')).toEqual([])
  })

  describe('an abort after the cut (docs/protocol.md §11.3 step 4: held responses are released on abort)', () => {
    const aborted = { test: { firstCheckpointCommitRefused: true } }

    it('[model.egress-release-on-abort] over 100 seeds of completed-before-egress whose first checkpoint aborts after the cut, each held response reaches the agent exactly once, after the release, and every invariant passes', () => {
      const bad: string[] = []
      let delivered = 0
      let completedDurable = 0
      for (let seed = 0; seed < 100; seed++) {
        const { result } = run('completed-before-egress', String(seed * 7919), aborted)
        if (ofType(result.events, 'controller.abort').length !== 1)
          bad.push(`${seed}: not one abort`)
        completedDurable += ofType(result.events, 'generation.cut_ack').filter(
          (e) =>
            e.payload.checkpoint_id === 'ck-1' && e.payload.disposition === 'completed_durable',
        ).length
        for (const release of ofType(result.events, 'model.egress_released').filter(
          (e) => e.payload.checkpoint_id === 'ck-1',
        )) {
          const call = release.payload.model_call_id
          if (release.payload.disposition !== 'aborted')
            bad.push(`${seed}: ${call} released as ${release.payload.disposition}`)
          const responses = ofType(result.events, 'model.response').filter(
            (e) => e.payload.model_call_id === call && e.outcome === 'ok',
          )
          const recut = ofType(result.events, 'generation.cut_ack').some(
            (e) => e.payload.checkpoint_id === 'ck-2' && e.payload.model_call_id === call,
          )
          if (release.payload.delivered) {
            delivered++
            // The held response: delivered by this release, once, never before it.
            if (responses.length !== 1 || (responses[0]?.step ?? 0) < release.step)
              bad.push(`${seed}: held ${call} reached the agent ${responses.length} time(s)`)
          } else if (responses.length + (recut ? 1 : 0) !== 1)
            bad.push(`${seed}: ${call} answered ${responses.length} time(s), cut again ${recut}`)
          // Nothing is generated again: the attempt asks for that turn once.
          const request = ofType(result.events, 'model.request').find(
            (e) => e.payload.model_call_id === call,
          )
          const asks = ofType(result.events, 'model.request').filter(
            (e) =>
              e.payload.rollout_id === release.payload.rollout_id &&
              e.payload.attempt_index === release.payload.attempt_index &&
              e.payload.turn === request?.payload.turn,
          )
          if (asks.length !== 1) bad.push(`${seed}: ${call}'s turn asked ${asks.length} times`)
        }
        if (result.failures.length > 0 || result.outcome !== 'completed')
          bad.push(`${seed}: ${result.outcome} ${JSON.stringify(result.failures)}`)
      }
      expect(bad).toEqual([])
      // Every completed_durable ticket is held; calls cut active usually finish behind the fence
      // too.
      expect(completedDurable).toBeGreaterThan(30)
      expect(delivered).toBeGreaterThanOrEqual(completedDurable)
    })

    it('[model.egress-release-on-abort] over 100 seeds of generation-safe-cut whose first checkpoint aborts after the cut, the frozen call keeps generating (never issued again) and every invariant passes', () => {
      const bad: string[] = []
      for (let seed = 0; seed < 100; seed++) {
        const { result } = run('generation-safe-cut', String(seed * 7919), aborted)
        const ack = ofType(result.events, 'generation.cut_ack').find(
          (e) => e.payload.checkpoint_id === 'ck-1' && e.payload.disposition === 'durable_prefix',
        )
        const call = ack?.payload.model_call_id
        const release = ofType(result.events, 'model.egress_released').find(
          (e) => e.payload.checkpoint_id === 'ck-1' && e.payload.model_call_id === call,
        )
        if (
          ack === undefined ||
          release?.payload.disposition !== 'aborted' ||
          release.payload.delivered
        ) {
          bad.push(`${seed}: no active cut released on abort`)
          continue
        }
        const turn = ofType(result.events, 'model.request').find(
          (e) => e.payload.model_call_id === call,
        )?.payload.turn
        const asks = ofType(result.events, 'model.request').filter(
          (e) =>
            e.payload.rollout_id === 'r0' &&
            e.payload.attempt_index === 0 &&
            e.payload.turn === turn,
        )
        // The same call is either answered once by this process or cut again by the retaken
        // checkpoint (with a longer prefix).
        const responses = ofType(result.events, 'model.response').filter(
          (e) => e.payload.model_call_id === call && e.outcome === 'ok',
        )
        const recut = ofType(result.events, 'generation.cut_ack').find(
          (e) => e.payload.checkpoint_id === 'ck-2' && e.payload.model_call_id === call,
        )
        if (asks.length !== 1)
          bad.push(`${seed}: turn ${String(turn)} of r0 asked ${asks.length} times`)
        if (responses.length + (recut === undefined ? 0 : 1) !== 1)
          bad.push(
            `${seed}: ${String(call)} answered ${responses.length} time(s), cut again ${recut !== undefined}`,
          )
        if (
          recut !== undefined &&
          (recut.payload.prefix_token_count ?? 0) <= (ack.payload.prefix_token_count ?? 0)
        )
          bad.push(`${seed}: the second cut lost tokens`)
        if (result.failures.length > 0 || result.outcome !== 'completed')
          bad.push(`${seed}: ${result.outcome} ${JSON.stringify(result.failures)}`)
      }
      expect(bad).toEqual([])
    })

    it("[model.egress-release-on-abort] a user can reach it with faults: three crash_after_write on the retries of the model's commit (writes 9, 10, 11 of generation-safe-cut seed 0) abort the checkpoint after the cut", () => {
      const faults: Fault[] = [
        { kind: 'straggler', rollout: 0, extra_ms: 400 },
        ...[9, 10, 11].map((k) => ({ kind: 'crash_after_write' as const, k })),
      ]
      const { result } = run('generation-safe-cut', '0', { faults })
      expect(
        ofType(result.events, 'model.commit')
          .filter((e) => e.payload.checkpoint_id === 'ck-1')
          .map((e) => e.outcome),
      ).toEqual(['ledger_mismatch', 'ledger_mismatch', 'ledger_mismatch'])
      expect(ofType(result.events, 'controller.abort')[0]?.payload.reason).toBe(
        'commit failed: ledger_mismatch',
      )
      expect(
        ofType(result.events, 'model.egress_released')
          .filter((e) => e.payload.checkpoint_id === 'ck-1')
          .map((e) => e.payload.disposition),
      ).toEqual(['aborted'])
      expect(result.inert_faults).toEqual([])
      expect(result.failures).toEqual([])
      expect(result.outcome).toBe('completed')
    })

    it('[egress-fenced] with egress-unfenced the abort path still fails egress-fenced at the early response', () => {
      const { result } = run('completed-before-egress', '0', { bug: 'egress-unfenced', ...aborted })
      const failure = result.failures.find((f) => f.id === 'egress-fenced')
      expect(result.events[(failure?.step ?? 0) - 1]?.type).toBe('model.response')
    })
  })
})
