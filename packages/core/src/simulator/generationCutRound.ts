import type { CutDisposition } from '../contracts/generationCuts.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { FrozenTicket } from '../protocol/GenerationCuts.ts'
import type { Engine } from './Engine.ts'
import type { RolloutDriver } from './RolloutDriver.ts'

/**
 * Virtual ms from the fence to the workers' buffer swap (the model builds and sends the
 * inventories).
 */
export const CUT_REQUEST_MS = 10

const workerName = (engine: Engine, k: number): string =>
  engine.world.model.workerCount > 1 ? `model_worker_${k}` : 'generation_worker'

/**
 * The generation-safe cut round at the prepare deadline (docs/protocol.md §11.3): the policy model
 * freezes the tickets still in flight and fences their egress; it classifies the ones it does not
 * send (constrained decoding → `excluded`, no token yet → `not_started`); after `CUT_REQUEST_MS`
 * each worker swaps its buffers, stages each prefix, waits for durability and answers one receipt;
 * the model aggregates the receipts into the cut proof. Each execution whose ticket has a
 * disposition parks on its last boundary. Returns the identities frozen (they are not retired).
 */
export function startGenerationCut(
  engine: Engine,
  driver: RolloutDriver,
  checkpointId: string,
): readonly ExecutionIdentity[] {
  const model = engine.world.model
  const begun = model.beginGenerationCut(
    checkpointId,
    (ticket, id) =>
      engine.faults.constrainedDecoding(id.rollout_id)
        ? 'excluded'
        : driver.tokensAt(ticket) === 0
          ? 'not_started'
          : 'cut',
    (ticket) => driver.cutTicket(ticket)?.admitted_at ?? engine.now,
  )
  if (!begun.ok) return []
  const frozen = begun.value.frozen
  // (Teaching bug `egress-unfenced`: the fence is announced but the model lets responses through.)
  for (const t of frozen) {
    engine.emit(
      'prepare',
      'policy_model',
      'agent',
      'model.egress_fenced',
      { ...ids(t), checkpoint_id: checkpointId, model_call_id: t.model_call_id, ticket: t.ticket },
      'ok',
    )
  }
  const proofCut = `${checkpointId}/cut`
  for (const t of frozen)
    if (t.disposition !== null) ownAck(engine, checkpointId, proofCut, t, t.disposition)
  parkSettled(engine, driver, checkpointId, frozen)
  const world = engine.world
  engine.at(CUT_REQUEST_MS, () => {
    // The checkpoint's disposition may be known already (a teaching bug let it commit before the
    // workers were asked): a round whose fence was released sends no cut request.
    if (engine.world !== world || !model.cutRoundOpen(checkpointId)) return
    for (const [worker, inventory] of begun.value.inventories) {
      const name = workerName(engine, worker)
      const { receipt, steps } = driver
        .generationWorker(worker)
        .cut(inventory, engine.options.digest, engine.now, (ticket) => model.heldResponse(ticket), {
          stageFails: (rolloutId) => engine.faults.cutStageFails(rolloutId),
          ackBeforeDurable: engine.config.bug === 'ack-before-durable',
        })
      const byTicket = new Map(inventory.active_prefixes.map((p) => [p.ticket_id, p]))
      for (const step of steps) {
        const p = byTicket.get(step.kind === 'ack' ? step.ack.ticket_id : step.ticket_id)
        if (p === undefined) continue
        const who = { rollout_id: p.rollout_id, attempt_index: p.attempt }
        if (step.kind === 'swap')
          engine.emit(
            'prepare',
            'policy_model',
            name,
            'generation.cut',
            {
              ...who,
              checkpoint_id: checkpointId,
              cut_id: receipt.cut_id,
              worker,
              ticket: p.ticket_id,
              model_call_id: p.model_call_id,
              prefix_token_count: step.prefix_token_count,
              inventory_digest: inventory.inventory_digest,
            },
            'ok',
          )
        else if (step.kind === 'stage')
          engine.emit(
            'prepare',
            name,
            'token_store',
            'token.stage_prefix',
            {
              ...who,
              checkpoint_id: checkpointId,
              model_call_id: p.model_call_id,
              staging_key: step.staging_key,
              prefix_token_count: step.prefix_token_count,
              prefix_digest: step.prefix_digest,
              durable: step.durable,
            },
            step.durable ? 'ok' : 'generation_cut_failed',
          )
        else {
          const a = step.ack
          engine.emit(
            'prepare',
            name,
            'policy_model',
            'generation.cut_ack',
            {
              ...who,
              checkpoint_id: checkpointId,
              cut_id: receipt.cut_id,
              worker,
              model_call_id: p.model_call_id,
              disposition:
                a.disposition === 'durable_prefix' && a.cut_kind === 'terminal_completion'
                  ? 'completed_durable'
                  : a.disposition,
              cut_kind: a.cut_kind ?? null,
              prefix_token_count: a.prefix_token_count ?? null,
              prefix_digest: a.prefix_digest ?? null,
              staging_keys: [...(a.staging_keys ?? [])],
            },
            'ok',
          )
        }
      }
      model.acceptCutReceipt(worker, receipt)
    }
    parkSettled(engine, driver, checkpointId, model.generationCutFrozen())
  })
  return frozen.map((t) => t.id)
}

/**
 * The model's own classification of a ticket it does not send for cutting, as an acknowledgement to
 * itself.
 */
function ownAck(
  engine: Engine,
  checkpointId: string,
  cutId: string,
  t: FrozenTicket,
  disposition: CutDisposition,
): void {
  engine.emit(
    'prepare',
    'policy_model',
    'policy_model',
    'generation.cut_ack',
    {
      ...ids(t),
      checkpoint_id: checkpointId,
      cut_id: cutId,
      worker: t.worker,
      model_call_id: t.model_call_id,
      disposition,
      cut_kind: null,
      prefix_token_count: null,
      prefix_digest: null,
      staging_keys: [],
    },
    'ok',
  )
}

/** Every frozen ticket with a disposition: its execution parks on its last boundary. */
function parkSettled(
  engine: Engine,
  driver: RolloutDriver,
  checkpointId: string,
  frozen: readonly FrozenTicket[],
): void {
  for (const t of frozen) {
    if (t.disposition === null) continue
    const parked = engine.world.agent.parkAtCut(checkpointId, t.id)
    if (parked.ok && parked.value.parked) driver.parkedAtCut(t.id.rollout_id)
  }
}

const ids = (t: FrozenTicket): { rollout_id: string; attempt_index: number } => ({
  rollout_id: t.id.rollout_id,
  attempt_index: t.id.attempt_index,
})

/**
 * The checkpoint's disposition is known (the ledger committed, or the checkpoint aborted): the
 * fence lifts and each frozen ticket is reported (docs/protocol.md §11.3 step 4). Committed: this
 * process never delivers the held responses — attempt N+1 continues each call from its disposition.
 * Aborted: nothing is redone — a held response is delivered now, exactly once, and a call still
 * generating goes on from where it is (its execution leaves the cut's park).
 */
export function releaseEgress(
  engine: Engine,
  driver: RolloutDriver,
  checkpointId: string,
  disposition: 'committed' | 'aborted',
): void {
  const model = engine.world.model
  if (model.generationCutProof === null && model.generationCutFrozen().length === 0) return
  for (const t of model.releaseEgress(disposition)) {
    const delivered = disposition === 'aborted' && t.held
    engine.emit(
      disposition === 'committed' ? 'commit' : 'abort',
      'policy_model',
      'agent',
      'model.egress_released',
      {
        ...ids(t),
        checkpoint_id: checkpointId,
        model_call_id: t.model_call_id,
        disposition,
        delivered,
      },
      'ok',
    )
    driver.releasedFromCut(t.id, t.ticket, disposition)
  }
}
