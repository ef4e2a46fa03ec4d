import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunConfig } from '@cutover/core/contracts'
import { runSimulation } from '@cutover/core'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'

/**
 * Each rollout's final result digest (`sha256` of `{reward, output}`, the completion receipt's
 * `result_digest`) in the simulator's run of the same config: the reference a fleet run's rollouts
 * must match, continued or not (the simulator's own equivalence check holds its continued rollouts
 * to its uninterrupted baseline).
 */
export function simulatorResultDigests(
  config: RunConfig,
): ReadonlyMap<string, { readonly reward: number; readonly result_digest: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'cutover-fleet-reference-'))
  try {
    const result = runSimulation(config, {
      digest: nodeDigest,
      workplace: loadNodeWorkplaceData(),
      openDirectory: (id) => new NodeCheckpointDirectory(join(scratch, id)),
    })
    const out = new Map<string, { reward: number; result_digest: string }>()
    for (const e of result.events) {
      if (e.type !== 'run.complete' || e.outcome !== 'ok') continue
      const p = e.payload as {
        rollout_id: string
        reward: number
        receipt: { result_digest?: string } | null
      }
      if (p.receipt?.result_digest !== undefined)
        out.set(p.rollout_id, { reward: p.reward, result_digest: p.receipt.result_digest })
    }
    return out
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
