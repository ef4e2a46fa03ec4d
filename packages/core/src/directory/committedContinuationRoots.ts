import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Digest } from '../ports.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { continuationRootsOf } from './continuationRoots.ts'
import { AGENT_DIR } from './layout.ts'
import { loadAgentNamespace } from './loadAgentNamespace.ts'

/**
 * The continuation roots of the agent namespace checkpoint `checkpointId` already committed in D
 * (verified: manifest, digests, records). A model commit that receives no roots — the real NeMo-RL
 * controller sends none, and commits the agent first (participant-id order) — takes these: the
 * same roots the agent's commit answered. Refused with `ledger_mismatch` when D holds no verified
 * agent namespace of that checkpoint.
 */
export function committedContinuationRoots(
  dir: CheckpointDirectory,
  digest: Digest,
  checkpointId: string,
): Result<ContinuationRoot[], CutoverError> {
  const loaded = loadAgentNamespace(dir, digest)
  if (!loaded.ok)
    return err(
      cutoverError(
        'ledger_mismatch',
        `no continuation_roots given and ${AGENT_DIR}/ holds no committed agent namespace to read them from: ${loaded.error.message}`,
      ),
    )
  if (loaded.value.manifest.checkpoint_id !== checkpointId)
    return err(
      cutoverError(
        'ledger_mismatch',
        `no continuation_roots given and ${AGENT_DIR}/ holds checkpoint ${loaded.value.manifest.checkpoint_id}, not ${checkpointId}`,
      ),
    )
  return ok(continuationRootsOf(loaded.value.records))
}
