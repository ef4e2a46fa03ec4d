import type { AggregateManifest } from './manifests.ts'

/** Who published a checkpoint directory (`cutover verify --json`'s `publisher`). */
export type CheckpointPublisher = 'nemo-rl' | 'cutover'

/**
 * Whose controller published the aggregate manifest (docs/real-stack.md). The real NeMo-RL
 * controller (`nemo_gym_checkpoint.py`) records, for every participant, the whole capability
 * declaration it validated at discovery — `component`, `multi_process_mode`, `num_workers`, … —
 * and writes no file besides `nemo_gym_checkpoint_manifest.json`. Cutover's controller records
 * only the capabilities it relies on (never a `component`), and seals the checkpoint with the
 * token-store manifest and `checkpoint.json`. An aggregate with no participant is Cutover's.
 */
export function checkpointPublisher(manifest: AggregateManifest): CheckpointPublisher {
  const declared = manifest.participants.every(
    (p) =>
      typeof p.capabilities['component'] === 'string' &&
      typeof p.capabilities['multi_process_mode'] === 'string',
  )
  return declared && manifest.participants.length > 0 ? 'nemo-rl' : 'cutover'
}
