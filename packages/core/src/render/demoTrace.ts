import type { JsonValue } from '../json.ts'
import type { ParticipantId, TraceMessage, TracePhase } from '../contracts/trace.ts'

const CHECKPOINT_ID = 'ckpt-000001'
const DIR = '/checkpoints/ckpt-000001'

type Row = readonly [
  time_ms: number,
  phase: TracePhase,
  from: ParticipantId,
  to: ParticipantId,
  type: string,
  payload: { readonly [key: string]: JsonValue },
  outcome?: string,
]

// One checkpoint cycle of a two-rollout run (r0 plays Blackjack, r1 the counter), in the order
// docs/protocol.md §3.5 prescribes: agents park → model drains → resources export; commit agents →
// model → resources → aggregate manifest last; restore under attempt 2, paused; resume
// dependencies before agents; then the fenced attempt 1 of r0 is refused and attempt 2 runs on.
const ROWS: readonly Row[] = [
  [0, 'run', 'rollout_r0', 'agent', 'agent.run', { rollout_id: 'r0', attempt_index: 1 }],
  [
    4,
    'run',
    'agent',
    'policy_model',
    'model.responses',
    { rollout_id: 'r0', attempt_index: 1, model_call_id: 'r0.a1.m1' },
  ],
  [
    9,
    'run',
    'rollout_r1',
    'resources_counter',
    'resources.step',
    { rollout_id: 'r1', attempt_index: 1, revision: 3 },
  ],
  [
    20,
    'prepare',
    'controller',
    'agent',
    'agent.prepare',
    { checkpoint_id: CHECKPOINT_ID, deadline_ms: 520 },
  ],
  [
    24,
    'prepare',
    'controller',
    'policy_model',
    'model.pause',
    { checkpoint_id: CHECKPOINT_ID, deadline_ms: 520 },
  ],
  [
    31,
    'prepare',
    'policy_model',
    'generation_worker',
    'generation.stage',
    { rollout_id: 'r0', attempt_index: 1, model_call_id: 'r0.a1.m1' },
  ],
  [
    35,
    'prepare',
    'generation_worker',
    'token_store',
    'token_store.put',
    { rollout_id: 'r0', attempt_index: 1, staging_key: 'tq/r0.a1.m1' },
  ],
  [
    40,
    'prepare',
    'controller',
    'policy_model',
    'model.status',
    { checkpoint_id: CHECKPOINT_ID, state: 'paused', inflight_total: 0 },
  ],
  [
    46,
    'prepare',
    'controller',
    'resources_counter',
    'resources.prepare',
    { checkpoint_id: CHECKPOINT_ID, sessions: 1 },
  ],
  [
    60,
    'commit',
    'controller',
    'agent',
    'agent.commit',
    { checkpoint_id: CHECKPOINT_ID, checkpoint_dir: DIR },
  ],
  [63, 'commit', 'agent', 'directory', 'directory.write', { path: 'agent/manifest.json' }],
  [
    70,
    'commit',
    'controller',
    'policy_model',
    'model.commit',
    { checkpoint_id: CHECKPOINT_ID, checkpoint_dir: DIR },
  ],
  [
    74,
    'commit',
    'policy_model',
    'directory',
    'directory.write',
    { path: 'model-ledger/policy/manifest.json' },
  ],
  [
    80,
    'commit',
    'controller',
    'resources_counter',
    'resources.commit',
    { checkpoint_id: CHECKPOINT_ID, checkpoint_dir: DIR },
  ],
  [
    83,
    'commit',
    'resources_counter',
    'directory',
    'directory.write',
    { path: 'resources/counter/r1.a1.json' },
  ],
  [
    90,
    'commit',
    'controller',
    'directory',
    'directory.write',
    { path: 'nemo_gym_checkpoint_manifest.json' },
  ],
  [
    120,
    'restore',
    'controller',
    'agent',
    'agent.restore',
    { checkpoint_id: CHECKPOINT_ID, checkpoint_dir: DIR },
  ],
  [
    126,
    'restore',
    'controller',
    'policy_model',
    'model.restore',
    { checkpoint_id: CHECKPOINT_ID, checkpoint_dir: DIR },
  ],
  [
    133,
    'restore',
    'controller',
    'resources_counter',
    'resources.restore',
    { checkpoint_id: CHECKPOINT_ID, checkpoint_dir: DIR },
  ],
  [150, 'resume', 'controller', 'policy_model', 'model.resume', { checkpoint_id: CHECKPOINT_ID }],
  [
    153,
    'resume',
    'controller',
    'resources_counter',
    'resources.resume',
    { checkpoint_id: CHECKPOINT_ID },
  ],
  [156, 'resume', 'controller', 'agent', 'agent.resume', { checkpoint_id: CHECKPOINT_ID }],
  [
    170,
    'continue',
    'rollout_r0',
    'policy_model',
    'model.responses',
    { rollout_id: 'r0', attempt_index: 1, model_call_id: 'r0.a1.m2' },
    'stale_attempt',
  ],
  [
    176,
    'continue',
    'rollout_r1',
    'resources_counter',
    'resources.step',
    { rollout_id: 'r1', attempt_index: 2, revision: 4 },
  ],
]

/**
 * A tiny, fixed, hand-written trace of one checkpoint cycle, shaped per docs/protocol.md §12.2
 * (some of its types are not the simulator's): a readable fixture for the renderer's tests.
 */
export function demoTrace(): readonly TraceMessage[] {
  return ROWS.map(([time_ms, phase, from, to, type, payload, outcome = 'ok'], i) => ({
    step: i + 1,
    time_ms,
    phase,
    from,
    to,
    type,
    payload,
    outcome,
  }))
}
