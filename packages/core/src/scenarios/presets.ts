import type { ScenarioInfo, ScenarioName } from '../contracts/scenarios.ts'

/**
 * The scenario presets (docs/protocol.md §12.3): a default config, a fault schedule and the
 * narrative the UI and `cutover simulate --help` show.
 */
export const SCENARIOS: readonly ScenarioInfo[] = [
  {
    name: 'happy-path',
    title: 'Happy path',
    narrative:
      'Nine rollouts play Blackjack, the counter and Workplace Assistant. Mid-flight the controller parks every agent at a turn boundary, drains the policy model and exports each resources session; it commits agent records, the token-free lineage of exactly the continued calls, the resource snapshots, the aggregate manifest, the token-store snapshot and finally checkpoint.json. Fresh processes restore every continued rollout under attempt N+1, the model and resources resume before the agent, and every rollout finishes exactly as it would have without the checkpoint.',
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [],
  },
  {
    name: 'straggler-retirement',
    title: 'Straggler retirement',
    narrative:
      "Rollout r0's model call is still generating when the prepare deadline passes. Rather than fail the checkpoint, the controller sacrifices it: the policy model aborts its in-flight call and tombstones the attempt, the agent retires it and the resources server retires its session, so the cut contains everything else. After restore the rollout is redispatched fresh under a new attempt, and a delayed request from the retired attempt reaches the restored policy model and is refused with stale_attempt.",
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [
      { kind: 'straggler', rollout: 0, extra_ms: 400 },
      { kind: 'stale_request', rollout: 0, participant: 'policy_model' },
    ],
  },
  {
    name: 'stale-attempt-fenced',
    title: 'Stale attempt fenced everywhere',
    narrative:
      'After restore, delayed requests from attempt N of a continued rollout reach the policy model, the agent and the resources server of the new processes. Each refuses with stale_attempt before touching any state: restore installed N as a tombstone on all three participants, so only attempt N+1 may write.',
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [
      { kind: 'stale_request', rollout: 1, participant: 'policy_model' },
      { kind: 'stale_request', rollout: 1, participant: 'agent' },
      { kind: 'stale_request', rollout: 1, participant: 'resources' },
    ],
  },
  {
    name: 'corrupt-snapshot',
    title: 'Corrupt snapshot refused',
    narrative:
      'After the commit one byte of a resources snapshot is flipped. Restore verifies every digest before activating anything, so the resources server refuses, naming the file, and activates no session. The controller abandons the restore: the fresh processes it touched are resumed and discarded, the original processes (still paused after commit) resume, and the controller retakes the checkpoint a moment later into a new directory, which restores cleanly.',
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [{ kind: 'corrupt_file', namespace: 'resources', index: 0 }],
  },
  {
    name: 'crash-during-commit',
    title: 'Crash during commit',
    narrative:
      'The checkpoint directory fails on its third write, in the middle of the agent namespace, before its manifest. The agent commit fails and its fence returns to prepared; the controller retries the commit over the same directory. Participants that finished replay their recorded result, the agent rewrites its files and manifest, the aggregate manifest and checkpoint.json are published last, and the directory verifies.',
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [{ kind: 'crash_after_write', k: 3 }],
  },
  {
    name: 'two-worker-admission',
    title: 'Two-worker admission',
    narrative:
      'The policy model runs two workers behind an admission coordinator. Worker 1 never acknowledges the close, and the coordinator reports missing_workers instead of counting it as zero in flight. Its replacement tries to register while admission is closed and is refused with worker_registration_rejected. The controller aborts the checkpoint, the worker joins once admission is accepting again, and the retaken checkpoint pauses only when both workers acknowledge with nothing in flight.',
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [{ kind: 'missing_worker', worker: 1 }],
  },
  {
    name: 'receipt-replay',
    title: 'Receipt replay',
    narrative:
      "Rollout r0's completed result is still unacknowledged when the checkpoint starts, which blocks ready_to_commit. The controller first sends a batch holding the exact receipt and one mismatching receipt: it is refused with completed_execution_acknowledgement_error and releases nothing. It then acknowledges the exact receipt, replays the same acknowledgement (an idempotent success), and the agent becomes ready.",
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [{ kind: 'unacked_result', rollout: 0 }],
  },
  {
    name: 'restore-race',
    title: 'Restore race',
    narrative:
      'After restore two /run requests claim the same restored continuation of rollout r1 under attempt N+1. The agent hands the continuation to the first claimant only; the second gets duplicate_execution, and the rollout finishes once, exactly as without the checkpoint.',
    config: { rollouts: 9, deadline_ms: 100 },
    faults: [{ kind: 'duplicate_claim', rollout: 1 }],
  },
  {
    name: 'generation-safe-cut',
    title: 'Generation-safe cut',
    narrative:
      "The straggler of straggler-retirement, in cut_mode generation-safe: rollout r0's model call is still generating at the prepare deadline. Instead of sacrificing it, the policy model fences its response egress and sends the generation worker an inventory of the frozen tickets; the worker swaps buffers at token k, stages the prefix [0, k) in the token store, waits for durability and only then acknowledges durable_prefix. The commit writes the prefix as a token-store segment listed with its SHA-256 and a generation_cut record in the ledger. After restore the worker claims the cut, verifies the segment and continues the same call under attempt N+1 from token k; prefix and continuation together are exactly the tokens of the call never interrupted, and r0 ends as it would have without the checkpoint.",
    config: { rollouts: 9, deadline_ms: 100, cut_mode: 'generation-safe' },
    faults: [{ kind: 'straggler', rollout: 0, extra_ms: 400 }],
  },
  {
    name: 'completed-before-egress',
    title: 'Completed before egress',
    narrative:
      "Rollout r0's model call is a little late: it is still generating at the prepare deadline but finishes while the checkpoint is being taken. The egress fence holds its response back, so the agent never sees it; the worker acknowledges it as a durable_prefix of cut_kind terminal_completion (the whole generation, finish reason stop) and the ticket is completed_durable. After restore the call of attempt N+1 is delivered from custody: all of its tokens come from the segment, nothing is generated again. That is this scenario on about a third of seeds (seed 0 is one). How late the call is depends on the seed: on most of the others (about 6 in 10) it is still generating when the worker swaps buffers, so it is cut as an active_prefix at token k and continued under N+1 as in generation-safe-cut; on about 6 in 100 it ends before the deadline and r0 is between a response and its next boundary then: no call is cut and r0 is retired as in whole-request mode, since only generations are cut.",
    config: { rollouts: 9, deadline_ms: 100, cut_mode: 'generation-safe' },
    faults: [{ kind: 'straggler', rollout: 0, extra_ms: 140 }],
  },
  {
    name: 'constrained-decoding-excluded',
    title: 'Constrained decoding excluded',
    narrative:
      "Rollout r0's straggling call uses constrained decoding (a forced tool_choice), which cannot be cut at an arbitrary token. The policy model classifies its ticket excluded instead of sending it for a cut: nothing is staged, the ledger records the exclusion, and after restore the call is generated again from its input under attempt N+1, producing the same tokens from token 0.",
    config: { rollouts: 9, deadline_ms: 100, cut_mode: 'generation-safe' },
    faults: [
      { kind: 'straggler', rollout: 0, extra_ms: 400 },
      { kind: 'constrained_decoding', rollout: 0 },
    ],
  },
  {
    name: 'cut-stage-failure',
    title: 'Cut stage failure',
    narrative:
      "The generation worker freezes rollout r0's prefix but the token store cannot stage it. The worker answers durable_failure rather than a durable_prefix it cannot vouch for; a failed cut never blocks the checkpoint. The failure is recorded in the ledger and after restore the call is generated again from its input under attempt N+1.",
    config: { rollouts: 9, deadline_ms: 100, cut_mode: 'generation-safe' },
    faults: [
      { kind: 'straggler', rollout: 0, extra_ms: 400 },
      { kind: 'cut_stage_failure', rollout: 0 },
    ],
  },
  {
    name: 'corrupt-prefix-segment',
    title: 'Corrupt prefix segment',
    narrative:
      "After the commit one byte of rollout r0's staged prefix segment is flipped. Restore verifies the whole directory before any participant restores, every segment a durable_prefix names included, so the controller refuses the restore with segment_mismatch, naming the segment file, and nothing is installed (the policy model's own check would refuse it too, with restored_cut_digest_mismatch). The controller abandons the restore, the original processes resume, and the retaken checkpoint restores cleanly.",
    config: { rollouts: 9, deadline_ms: 100, cut_mode: 'generation-safe' },
    faults: [
      { kind: 'straggler', rollout: 0, extra_ms: 400 },
      { kind: 'corrupt_segment', index: 0 },
    ],
  },
  {
    name: 'cut-restore-race',
    title: 'Cut restore race',
    narrative:
      "The policy model runs two generation workers. After restore both try to claim rollout r0's restored cut. The lease goes to the first claimant; the second is refused with restored_cut_already_owned, and once the first has consumed the prefix a late claim is refused with restored_cut_consumed. The call continues exactly once from token k.",
    config: { rollouts: 9, deadline_ms: 100, cut_mode: 'generation-safe' },
    faults: [
      { kind: 'straggler', rollout: 0, extra_ms: 400 },
      { kind: 'duplicate_cut_claim', rollout: 0 },
    ],
  },
]

/** The preset named `name`. */
export function scenarioInfo(name: ScenarioName): ScenarioInfo {
  const found = SCENARIOS.find((s) => s.name === name)
  if (found === undefined) throw new Error(`unknown scenario ${name}`)
  return found
}

/**
 * Policy model workers a preset runs with at least (its `missing_worker` faults may ask for more).
 */
const MODEL_WORKERS: { readonly [K in ScenarioName]?: number } = {
  'two-worker-admission': 2,
  'cut-restore-race': 2,
}

/**
 * The number of policy model workers the scenario's preset runs with (1 unless it says otherwise).
 */
export const presetModelWorkers = (name: ScenarioName): number => MODEL_WORKERS[name] ?? 1
