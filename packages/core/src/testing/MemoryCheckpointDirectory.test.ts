import { describe, expect, it } from 'vitest'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'
import { MemoryCheckpointDirectory } from './MemoryCheckpointDirectory.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const paths = (dir: MemoryCheckpointDirectory) => dir.list().map((e) => e.path)

describe('MemoryCheckpointDirectory', () => {
  it('[manifest-last] a crash loses the writes since the last sync, as a real writer dying before its renames does', () => {
    const dir = new MemoryCheckpointDirectory({ failOnWrite: 4 })
    dir.writeFile('agent/r0.a0.json', bytes('0'))
    dir.writeFile('agent/r1.a0.json', bytes('1'))
    dir.sync()
    dir.writeFile('agent/r0.a0.json', bytes('rewritten'))
    expect(dir.pendingCount).toBe(1)
    expect(dir.readFile('agent/r0.a0.json')).toEqual(bytes('rewritten'))
    expect(() => dir.writeFile('agent/manifest.json', bytes('{}'))).toThrow(DirectoryWriteError)
    expect(dir.crashed).toBe(true)
    // The synced files with their synced bytes; the unsynced rewrite and the crashed write are
    // gone.
    expect(paths(dir)).toEqual(['agent/r0.a0.json', 'agent/r1.a0.json'])
    expect(dir.readFile('agent/r0.a0.json')).toEqual(bytes('0'))
    const retry = dir.reopen()
    expect(paths(retry)).toEqual(['agent/r0.a0.json', 'agent/r1.a0.json'])
    retry.writeFile('agent/manifest.json', bytes('{}'))
    expect(retry.crashed).toBe(false)
  })

  it('[manifest-last] reopening a live writer sees its pending writes (another reader opens after a flush)', () => {
    const dir = new MemoryCheckpointDirectory()
    dir.writeFile('agent/manifest.json', bytes('{}'))
    const reader = dir.reopen({ failOnWrite: 1 })
    expect(reader.readFile('agent/manifest.json')).toEqual(bytes('{}'))
    expect(() => reader.writeFile('agent/r0.a0.json', bytes('x'))).toThrow(DirectoryWriteError)
    expect(paths(reader)).toEqual(['agent/manifest.json'])
  })

  it('[corrupt_file] test hooks change the durable files: a later crash does not undo them', () => {
    const dir = new MemoryCheckpointDirectory({ failOnWrite: 2 })
    dir.writeFile('resources/counter/r0.a0.json', bytes('abc'))
    dir.sync()
    dir.flipByte('resources/counter/r0.a0.json', 1)
    dir.putRaw('resources/counter/extra.json', bytes('e'))
    expect(() => dir.writeFile('resources/counter/manifest.json', bytes('{}'))).toThrow(
      DirectoryWriteError,
    )
    expect(dir.readFile('resources/counter/r0.a0.json')).toEqual(
      new Uint8Array([0x61, 0x62 ^ 0xff, 0x63]),
    )
    expect(paths(dir)).toEqual(['resources/counter/extra.json', 'resources/counter/r0.a0.json'])
  })
})
