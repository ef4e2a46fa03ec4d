// The entry of the checkpoint verification worker thread (started by startVerificationWorker
// through verificationWorkerBootstrap.js): verifies checkpoint folders on request, one at a time,
// so reading and hashing a 20,000-file folder — or only walking its lstat signature, when the
// caller already holds the verification of an unchanged folder — never holds the server's event
// loop; and inspects checkpoint directories opened as directory runs (`POST /api/directories`) the
// same way.
import { parentPort } from 'node:worker_threads'
import type { WorkplaceBase } from '@cutover/core'
import { inspectDirectory, parseWorkplaceBase } from '@cutover/core'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { folderSignature } from '../store/folderSignature.ts'
import { checkpointVerification } from './checkpointVerification.ts'
import type { FromVerificationWorker, ToVerificationWorker } from './startVerificationWorker.ts'

const port = parentPort
if (port === null) throw new Error('verificationWorker.ts runs only as a worker thread')
/** The pristine Workplace tables (decoding Workplace snapshots), parsed on the first inspection. */
let base: WorkplaceBase | undefined
port.on('message', (message: ToVerificationWorker) => {
  let reply: FromVerificationWorker
  try {
    if (message.job === 'inspect') {
      const dir = new NodeCheckpointDirectory(message.folder, { create: false })
      reply = {
        id: message.id,
        value: inspectDirectory(
          dir,
          nodeDigest,
          (base ??= parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)),
        ),
      }
    } else {
      // The signature first (taken before reading, so a change during the verification shows next
      // time).
      const signature = folderSignature(message.folder)
      reply = {
        id: message.id,
        value:
          signature === message.known
            ? { signature }
            : {
                signature,
                verification: checkpointVerification(
                  new NodeCheckpointDirectory(message.folder, { create: false }),
                  nodeDigest,
                ),
              },
      }
    }
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
