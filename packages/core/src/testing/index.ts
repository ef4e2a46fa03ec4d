/**
 * @cutover/core/testing: fakes of core's ports for tests and the simulator. Explicit named
 * re-exports only.
 */
export { MemoryCheckpointDirectory } from './MemoryCheckpointDirectory.ts'
export type { MemoryCheckpointDirectoryOptions } from './MemoryCheckpointDirectory.ts'
export { commitSampleCheckpoint, createSampleCheckpoint } from '../directory/sampleCheckpoint.ts'
export type { SampleCheckpoint } from '../directory/sampleCheckpoint.ts'
