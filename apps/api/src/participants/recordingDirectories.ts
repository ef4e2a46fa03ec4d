import { basename } from 'node:path'
import type { CheckpointDirectory } from '@cutover/core'
import type { ProcessNote } from './processTrace.ts'

/**
 * Opens checkpoint directories whose every write is recorded as `directory.write` (the message a
 * participant sends to D, as in the simulator's trace), so the invariants see the order in which
 * each process wrote its namespace. The checkpoint id is the directory's name.
 */
export function recordingDirectories(
  open: (path: string, create: boolean) => CheckpointDirectory,
  note: ProcessNote,
): (path: string, create: boolean) => CheckpointDirectory {
  return (path, create) => {
    const dir = open(path, create)
    const checkpointId = basename(path)
    return {
      location: dir.location,
      writeFile(file, data) {
        dir.writeFile(file, data)
        note(
          'directory',
          'directory.write',
          { checkpoint_id: checkpointId, path: file, bytes: data.byteLength, crashed: false },
          'ok',
        )
      },
      sync: () => dir.sync(),
      readFile: (file) => dir.readFile(file),
      list: () => dir.list(),
    }
  }
}
