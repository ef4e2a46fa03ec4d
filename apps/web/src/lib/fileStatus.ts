import type { CheckpointFileView } from '@cutover/core/contracts'

/** How a checkpoint file's (or token-store segment's) digest status reads in the Manifests tabs. */
export const FILE_STATUS: { readonly [S in CheckpointFileView['status']]: string } = {
  ok: 'digest ok',
  digest_mismatch: 'digest mismatch',
  unlisted: 'not in manifest',
  missing: 'missing',
}
