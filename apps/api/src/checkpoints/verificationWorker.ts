// The entry of the checkpoint verification worker thread (started by startVerificationWorker
// through verificationWorkerBootstrap.js): verifies checkpoint folders on request, one at a time,
// so reading and hashing a 20,000-file folder never holds the server's event loop; and inspects
// checkpoint directories opened as directory runs (`POST /api/directories`) the same way.
import { parentPort } from 'node:worker_threads'
import type { WorkplaceBase } from '@cutover/core'
import { inspectDirectory, parseWorkplaceBase } from '@cutover/core'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { checkpointVerification } from './checkpointVerification.ts'
import type { FromVerificationWorker, ToVerificationWorker } from './startVerificationWorker.ts'

const port = parentPort
if (port === null) throw new Error('verificationWorker.ts runs only as a worker thread')
/** The pristine Workplace tables (decoding Workplace snapshots), parsed on the first inspection. */
let base: WorkplaceBase | undefined
port.on('message', (message: ToVerificationWorker) => {
  let reply: FromVerificationWorker
  try {
    const dir = new NodeCheckpointDirectory(message.folder, { create: false })
    const value = message.job === 'inspect' ? inspectDirectory(dir, nodeDigest, (base ??= parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest))) : checkpointVerification(dir, nodeDigest)
    reply = { id: message.id, value }
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
