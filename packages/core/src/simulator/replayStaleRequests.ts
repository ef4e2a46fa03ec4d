import type { EnvName } from '../contracts/environments.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import type { Engine } from './Engine.ts'

/** A rollout as the fault sees it: its environment and its current attempt. */
export interface StaleTarget {
  readonly env: EnvName
  readonly attempt: number
}

/**
 * `stale_request` faults: a delayed request of attempt N reaches the new processes 3 ms after the
 * restored rollouts were dispatched (as `rollout_<id>`), to the policy model, the agent or the
 * rollout's resources server; each must refuse it (`fenced-attempt-silent`).
 */
export function replayStaleRequests(
  engine: Engine,
  rollout: (rolloutId: string) => StaleTarget | undefined,
): void {
  for (const f of engine.faults.staleRequests) {
    const r = rollout(f.rolloutId)
    if (r === undefined || (f.ifContinued === true && r.attempt === 0)) continue
    const stale: ExecutionIdentity = {
      rollout_id: f.rolloutId,
      attempt_index: Math.max(0, r.attempt - 1),
    }
    const from = `rollout_${f.rolloutId}`
    const payload = {
      rollout_id: stale.rollout_id,
      attempt_index: stale.attempt_index,
      delayed: true as const,
    }
    engine.at(3, () => {
      if (f.participant === 'policy_model') {
        const a = engine.world.model.admit(stale)
        engine.emit(
          'continue',
          from,
          'policy_model',
          'model.request',
          {
            ...payload,
            model_call_id: a.ok ? a.value.model_call_id : null,
            parent_call_id: null,
            relay: false,
          },
          a.ok ? 'ok' : a.error.code,
        )
      } else if (f.participant === 'agent') {
        const b = engine.world.agent.begin(stale)
        engine.emit(
          'continue',
          from,
          'agent',
          'run.dispatch',
          { ...payload, environment: r.env, continued: false, generation: null },
          b.ok ? 'ok' : b.error.code,
        )
      } else {
        const requestId = `${executionKey(stale)}.stale`
        const resp = engine.world.resources[r.env].handleRequest({
          path: r.env === 'blackjack' ? '/step' : '/get_counter_value',
          method: 'POST',
          body: {},
          identity: stale,
          requestId,
        })
        engine.emit(
          'continue',
          from,
          `resources_${r.env}`,
          'env.request',
          {
            ...payload,
            path: 'stale',
            request_id: requestId,
            revision_before: resp.revisionBefore,
            revision: resp.revision,
            status: resp.status,
            replayed: false,
            success: resp.code === null,
          },
          resp.code ?? 'ok',
        )
      }
    })
  }
}
