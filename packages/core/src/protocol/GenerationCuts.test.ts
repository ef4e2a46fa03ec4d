import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { GenerationCuts } from './GenerationCuts.ts'
import { GenerationWorker } from './GenerationWorker.ts'
import { validateReceipt } from './generationCut.ts'
import { generationTokenIds } from './generationTokens.ts'
import { TokenStore } from './TokenStore.ts'
import { PolicyModel } from './PolicyModel.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'

const id = { rollout_id: 'r0', attempt_index: 0 }

/** One frozen ticket cut by one worker: the model's bookkeeping, the worker and the store. */
function cutOne(options: { stageFails?: boolean } = {}) {
  const store = new TokenStore()
  const worker = new GenerationWorker(store, 0)
  worker.begin('c1', { seed: '1', rollout_id: 'r0', call: 0, total: 100, started_at: 0, from: 0 })
  const cuts = new GenerationCuts(nodeDigest, 'policy')
  const inventories = cuts.freeze('ck-1', [
    { ticket: 't1', id, model_call_id: 'c1', worker: 0, admitted_at: 0, class: 'cut' },
  ])
  const inventory = inventories.get(0)
  if (inventory === undefined) throw new Error('no inventory')
  const { receipt, steps } = worker.cut(inventory, nodeDigest, 40, () => false, {
    stageFails: () => options.stageFails === true,
  })
  return { store, worker, cuts, inventory, receipt, steps }
}

describe('the generation-cut round (docs/protocol.md §11.3)', () => {
  it('[durable-before-ack] the worker swaps at token k, stages [0, k) and only then acknowledges it', () => {
    const { store, receipt, steps } = cutOne()
    expect(steps.map((s) => s.kind)).toEqual(['swap', 'stage', 'ack'])
    expect(receipt.prefixes[0]).toMatchObject({
      disposition: 'durable_prefix',
      cut_kind: 'active_prefix',
      prefix_token_count: 40,
      staging_keys: ['tq/c1/seg-0'],
      effective_output_limit: 100,
    })
    expect(store.tokens('tq/c1/seg-0')).toEqual(generationTokenIds('1', 'r0', 0, 0, 40))
  })

  it('[durable-before-ack] a repeated cut request for the same checkpoint answers the same receipt and stages nothing twice', () => {
    const { worker, inventory, receipt } = cutOne()
    const again = worker.cut(inventory, nodeDigest, 60, () => false)
    expect(again.receipt).toBe(receipt)
    expect(again.steps).toEqual([])
  })

  it('[durable-before-ack] a prefix the store cannot stage is a durable_failure with no evidence; a failed cut never blocks the proof', () => {
    const { cuts, receipt } = cutOne({ stageFails: true })
    expect(receipt.prefixes[0]).toEqual({
      ticket_id: 't1',
      rollout_id: 'r0',
      attempt: 0,
      model_call_id: 'c1',
      admitted_at: 0,
      disposition: 'durable_failure',
    })
    expect(cuts.accept(0, receipt).ok).toBe(true)
    expect(cuts.proof?.workers).toEqual([0])
    expect(cuts.pending).toBe(0)
  })

  it('[durable-before-ack] a receipt that answers another inventory, misses a ticket or changes an identity is refused', () => {
    const { inventory, receipt } = cutOne()
    expect(validateReceipt(receipt, inventory).ok).toBe(true)
    expect(validateReceipt({ ...receipt, inventory_digest: '0'.repeat(64) }, inventory).ok).toBe(
      false,
    )
    expect(validateReceipt({ ...receipt, prefixes: [] }, inventory).ok).toBe(false)
    expect(
      validateReceipt(
        { ...receipt, prefixes: [...receipt.prefixes, ...receipt.prefixes] },
        inventory,
      ).ok,
    ).toBe(false)
    expect(
      validateReceipt(
        { ...receipt, prefixes: receipt.prefixes.map((p) => ({ ...p, attempt: 1 })) },
        inventory,
      ).ok,
    ).toBe(false)
  })

  it('[model.generation-safe-cuts] before commit every prefix is checked against the token store: a changed or missing segment refuses', () => {
    const { store, cuts, receipt } = cutOne()
    expect(cuts.accept(0, receipt).ok).toBe(true)
    expect(cuts.validate(store).ok).toBe(true)
    store.stage('tq/c1/seg-0', [1, 2, 3])
    const changed = cuts.validate(store)
    expect(changed.ok ? null : changed.error.code).toBe('ledger_mismatch')
    expect(cuts.validate(new TokenStore()).ok).toBe(false)
  })

  it('[coordinator.cut-leases] a restored cut is leased to one worker: a second claimant and a consumed cut are refused; a disconnect releases the lease', () => {
    const { cuts, receipt } = cutOne()
    cuts.accept(0, receipt)
    const [entry] = cuts.records(() => true)
    if (entry === undefined) throw new Error('no record')
    const restored = new GenerationCuts(nodeDigest, 'policy')
    restored.install([{ entry, tokens: generationTokenIds('1', 'r0', 0, 0, 40) }])
    expect(restored.restoredFor({ rollout_id: 'r0', attempt_index: 1 })?.entry.model_call_id).toBe(
      'c1',
    )
    expect(restored.claim('c1', 0, 'g1-c3').ok).toBe(true)
    const second = restored.claim('c1', 1, 'g1-c3')
    expect(second.ok ? null : second.error.code).toBe('restored_cut_already_owned')
    expect(restored.releaseWorker(0)).toBe(1)
    expect(restored.claim('c1', 1, 'g1-c4').ok).toBe(true)
    expect(restored.consume('c1', 1).ok).toBe(true)
    const late = restored.claim('c1', 0, 'g1-c5')
    expect(late.ok ? null : late.error.code).toBe('restored_cut_consumed')
  })

  it('[model.generation-safe-cuts] the policy model refuses to commit a cut whose prefix the token store no longer holds (ledger_mismatch), writing nothing', () => {
    const store = new TokenStore()
    const model = new PolicyModel(nodeDigest, { serverName: 'policy', tokenStore: store })
    const worker = new GenerationWorker(store, 0)
    const admitted = model.admit(id)
    if (!admitted.ok) throw new Error(admitted.error.message)
    worker.begin(admitted.value.model_call_id, {
      seed: '1',
      rollout_id: 'r0',
      call: 0,
      total: 100,
      started_at: 0,
      from: 0,
    })
    expect(model.pause('ck-1', 1000).ok).toBe(true)
    const begun = model.beginGenerationCut(
      'ck-1',
      () => 'cut',
      () => 0,
    )
    if (!begun.ok) throw new Error(begun.error.message)
    const inventory = begun.value.inventories.get(0)
    if (inventory === undefined) throw new Error('no inventory')
    expect(
      model.acceptCutReceipt(0, worker.cut(inventory, nodeDigest, 30, () => false).receipt).ok,
    ).toBe(true)
    const status = model.status('ck-1', 40)
    expect(status.ok && status.value.state).toBe('paused')
    expect(status.ok && status.value.generation_cut_proof?.workers).toEqual([0])
    store.stage('tq/policy-call-000001/seg-0', [7])
    const dir = new MemoryCheckpointDirectory()
    const committed = model.commit('ck-1', dir, [])
    expect(committed.ok ? null : committed.error.code).toBe('ledger_mismatch')
    expect(dir.list()).toEqual([])
  })

  it('[model.egress-release-on-abort] an abort lifts the fence without dropping a ticket: the held response completes once, an active call stays in flight', () => {
    const store = new TokenStore()
    const model = new PolicyModel(nodeDigest, { serverName: 'policy', tokenStore: store })
    const worker = new GenerationWorker(store, 0)
    const held = model.admit(id)
    const active = model.admit({ rollout_id: 'r1', attempt_index: 0 })
    if (!held.ok || !active.ok) throw new Error('not admitted')
    for (const [a, rollout] of [
      [held.value, 'r0'],
      [active.value, 'r1'],
    ] as const)
      worker.begin(a.model_call_id, {
        seed: '1',
        rollout_id: rollout,
        call: 0,
        total: 100,
        started_at: 0,
        from: 0,
      })
    expect(model.pause('ck-1', 1000).ok).toBe(true)
    if (
      !model.beginGenerationCut(
        'ck-1',
        () => 'cut',
        () => 0,
      ).ok
    )
      throw new Error('no cut')
    const coords = {
      staging_key: `tq/${held.value.model_call_id}`,
      prev_len: 0,
      delta_len: 100,
      cum_len: 100,
    }
    // r0 finishes behind the fence: held, not delivered.
    const fenced = model.complete(held.value.ticket, coords, 50)
    expect(fenced.ok ? null : fenced.error.code).toBe('checkpoint_parked')
    expect(model.heldResponse(held.value.ticket)).toBe(true)
    const released = model.releaseEgress('aborted')
    expect(released.map((t) => [t.model_call_id, t.held])).toEqual([
      [held.value.model_call_id, true],
      [active.value.model_call_id, false],
    ])
    expect(model.isInflight(held.value.ticket) && model.isInflight(active.value.ticket)).toBe(true)
    expect(model.egressFenced(held.value.ticket)).toBe(false)
    // Delivered now, once: custody recorded, the ticket leaves; a second completion is unknown.
    expect(model.complete(held.value.ticket, coords, 60).ok).toBe(true)
    expect(model.complete(held.value.ticket, coords, 61).ok).toBe(false)
    expect(model.ledgerRows().map((r) => r.model_call_id)).toEqual([held.value.model_call_id])
    expect(model.isInflight(active.value.ticket)).toBe(true)
  })

  it('[model.egress-release-on-abort] a commit lifts the fence by dropping the frozen tickets (attempt N+1 continues them)', () => {
    const model = new PolicyModel(nodeDigest, { serverName: 'policy' })
    const a = model.admit(id)
    if (!a.ok) throw new Error(a.error.message)
    model.pause('ck-1', 1000)
    model.beginGenerationCut(
      'ck-1',
      () => 'not_started',
      () => 0,
    )
    expect(model.releaseEgress('committed').map((t) => t.held)).toEqual([false])
    expect(model.isInflight(a.value.ticket)).toBe(false)
  })
})
