/**
 * @cutover/core/adapters: the node implementations of core's ports. Explicit named re-exports only.
 */
export { nodeDigest } from './nodeDigest.ts'
export {
  NodeCheckpointDirectory,
  TEMP_PREFIX,
  fileSystemErrorCode,
} from './NodeCheckpointDirectory.ts'
export { loadNodeWorkplaceData, WORKPLACE_VENDOR_DIR } from './nodeWorkplaceData.ts'
export { writeFileAtomic } from './writeFileAtomic.ts'
