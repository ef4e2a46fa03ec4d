// The entry of the checkpoint verification worker thread (started by startVerificationWorker
// through verificationWorkerBootstrap.js): verifies checkpoint folders on request, one at a time,
// so reading and hashing a 20,000-file folder never holds the server's event loop.
import { parentPort } from 'node:worker_threads'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { checkpointVerification } from './checkpointVerification.ts'
import type { FromVerificationWorker, ToVerificationWorker } from './startVerificationWorker.ts'

const port = parentPort
if (port === null) throw new Error('verificationWorker.ts runs only as a worker thread')
port.on('message', (message: ToVerificationWorker) => {
  let reply: FromVerificationWorker
  try {
    reply = { id: message.id, value: checkpointVerification(new NodeCheckpointDirectory(message.folder, { create: false }), nodeDigest) }
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
