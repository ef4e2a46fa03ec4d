import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from '../directory/sampleCheckpoint.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { NodeCheckpointDirectory } from './NodeCheckpointDirectory.ts'
import { nodeDigest } from './nodeDigest.ts'
import { loadNodeWorkplaceData } from './nodeWorkplaceData.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'

const roots: string[] = []
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'cutover-dir-'))
  roots.push(root)
  return root
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const bytes = (text: string) => new TextEncoder().encode(text)

describe('NodeCheckpointDirectory', () => {
  it('[atomic] writes through a temp file and leaves only the final file', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    dir.writeFile('resources/counter/r0.a0.json', bytes('{"a":1}\n'))
    dir.writeFile('resources/counter/r0.a0.json', bytes('{"a":2}\n'))
    dir.sync()
    expect(readdirSync(join(root, 'resources/counter'))).toEqual(['r0.a0.json'])
    expect(readFileSync(join(root, 'resources/counter/r0.a0.json'), 'utf8')).toBe('{"a":2}\n')
    expect(dir.readFile('resources/counter/r0.a0.json')).toEqual(bytes('{"a":2}\n'))
    expect(dir.readFile('resources/counter/missing.json')).toBeUndefined()
    expect(dir.list()).toEqual([{ path: 'resources/counter/r0.a0.json', kind: 'file', bytes: 8 }])
  })

  it('[atomic] a file changed on disk after its writer made it durable reads as changed, whoever changed it', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    dir.writeFile('agent/r0.a0.json', bytes('{"a":1}\n'))
    dir.writeFile('agent/r1.a0.json', bytes('{"b":1}\n'))
    dir.sync()
    expect(dir.readFile('agent/r0.a0.json')).toEqual(bytes('{"a":1}\n'))
    // Rewritten in place with the same size (same inode), and replaced by a new inode.
    writeFileSync(join(root, 'agent/r0.a0.json'), '{"a":2}\n')
    writeFileSync(join(root, 'agent/other.json'), '{"b":22}\n')
    renameSync(join(root, 'agent/other.json'), join(root, 'agent/r1.a0.json'))
    expect(dir.readFile('agent/r0.a0.json')).toEqual(bytes('{"a":2}\n'))
    expect(dir.readFile('agent/r1.a0.json')).toEqual(bytes('{"b":22}\n'))
    rmSync(join(root, 'agent/r0.a0.json'))
    expect(dir.readFile('agent/r0.a0.json')).toBeUndefined()
    expect(dir.list()).toEqual([{ path: 'agent/r1.a0.json', kind: 'file', bytes: 9 }])
  })

  it('[paths] refuses unsafe paths and writes through symlinked folders', () => {
    const root = tempRoot()
    const outside = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    expect(() => dir.writeFile('../escape.json', bytes('x'))).toThrow(DirectoryWriteError)
    expect(() => dir.writeFile('/abs.json', bytes('x'))).toThrow(DirectoryWriteError)
    symlinkSync(outside, join(root, 'agent'))
    expect(() => dir.writeFile('agent/manifest.json', bytes('x'))).toThrow(/symlink/)
    expect(readdirSync(outside)).toEqual([])
  })

  it('[paths] does not follow symlinks when reading or listing', () => {
    const root = tempRoot()
    const outside = tempRoot()
    writeFileSync(join(outside, 'secret.json'), '{"secret":true}')
    mkdirSync(join(outside, 'sub'))
    writeFileSync(join(outside, 'sub', 'inner.json'), '{}')
    const dir = new NodeCheckpointDirectory(root)
    dir.writeFile('agent/manifest.json', bytes('{}\n'))
    symlinkSync(join(outside, 'secret.json'), join(root, 'agent', 'r0.a0.json'))
    symlinkSync(join(outside, 'sub'), join(root, 'resources'))
    expect(dir.readFile('agent/r0.a0.json')).toBeUndefined()
    expect(dir.readFile('resources/inner.json')).toBeUndefined()
    const listed = dir.list()
    expect(listed.map((e) => [e.path, e.kind])).toEqual([
      ['agent/manifest.json', 'file'],
      ['agent/r0.a0.json', 'symlink'],
      ['resources', 'symlink'],
    ])
  })

  it('[paths] verify rejects a symlink in a committed checkpoint on the real file system', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    expect(commitSampleCheckpoint(dir, nodeDigest, createSampleCheckpoint(4)).ok).toBe(true)
    expect(verifyCheckpoint(dir, nodeDigest)).toEqual({
      valid: true,
      problems: [],
      publisher: 'cutover',
    })
    const victim = 'resources/counter/r1.a0.json'
    const copy = join(tempRoot(), 'copy.json')
    writeFileSync(copy, readFileSync(join(root, victim)))
    rmSync(join(root, victim))
    symlinkSync(copy, join(root, victim))
    expect(lstatSync(join(root, victim)).isSymbolicLink()).toBe(true)
    const report = new NodeCheckpointDirectory(root)
    const problems = verifyCheckpoint(report, nodeDigest).problems
    expect(problems.map((p) => [p.code, p.path])).toContainEqual(['symlink', victim])
  })

  it('[atomic] a commit leaves no temp files behind and re-opens to the same verified content', () => {
    const root = tempRoot()
    const sample = createSampleCheckpoint(9)
    expect(commitSampleCheckpoint(new NodeCheckpointDirectory(root), nodeDigest, sample).ok).toBe(
      true,
    )
    const reopened = new NodeCheckpointDirectory(root)
    expect(reopened.list().some((e) => e.path.includes('.cutover-tmp-'))).toBe(false)
    expect(verifyCheckpoint(reopened, nodeDigest).valid).toBe(true)
    expect(commitSampleCheckpoint(reopened, nodeDigest, sample).ok).toBe(true)
  })

  it('[atomic] a write is pending until sync: seen by its writer, on disk only as a temp file, renamed by sync', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    dir.writeFile('agent/r0.a0.json', bytes('{"a":1}\n'))
    dir.writeFile('agent/r0.a0.json', bytes('{"a":2}\n'))
    // The rewrite replaced the first temp file: one temp, no final name yet.
    const onDisk = readdirSync(join(root, 'agent'))
    expect(onDisk).toHaveLength(1)
    expect(onDisk[0]?.startsWith('.cutover-tmp-r0.a0.json-')).toBe(true)
    expect(dir.readFile('agent/r0.a0.json')).toEqual(bytes('{"a":2}\n'))
    expect(dir.list()).toEqual([{ path: 'agent/r0.a0.json', kind: 'file', bytes: 8 }])
    dir.sync()
    expect(readdirSync(join(root, 'agent'))).toEqual(['r0.a0.json'])
    expect(readFileSync(join(root, 'agent/r0.a0.json'), 'utf8')).toBe('{"a":2}\n')
    // One durability step for the batch (syncfs), or one per file on the fallback.
    expect(dir.stats.durabilitySteps).toBe(1)
  })

  it('[atomic] a batch of writes is made durable in one step, then renamed, then each folder fsynced once', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    for (let i = 0; i < 50; i++)
      dir.writeFile(`resources/counter/r${i}.a0.json`, bytes(`{"i":${i}}\n`))
    dir.sync()
    expect(readdirSync(join(root, 'resources/counter'))).toHaveLength(50)
    expect(
      readdirSync(join(root, 'resources/counter')).some((n) => n.startsWith('.cutover-tmp-')),
    ).toBe(false)
    // root, resources and resources/counter: each folder once, whatever the file count.
    expect(dir.stats.folderSyncs).toBe(3)
    expect(dir.stats.writes).toBe(50)
  })

  it('[atomic] a batch of one or two files (a manifest, the marker) is made durable file by file instead of one file-system flush', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    dir.writeFile('agent/manifest.json', bytes('{"m":1}\n'))
    dir.writeFile('checkpoint.json', bytes('{"c":1}\n'))
    dir.sync()
    expect(dir.stats.durabilitySteps).toBe(2)
    for (let i = 0; i < 3; i++) dir.writeFile(`agent/r${i}.a0.json`, bytes(`{"i":${i}}\n`))
    dir.sync()
    // Three files: one flush of the file system (one fdatasync each only where syncfs is
    // unavailable).
    expect([3, 5]).toContain(dir.stats.durabilitySteps)
    expect(readFileSync(join(root, 'agent/manifest.json'), 'utf8')).toBe('{"m":1}\n')
  })

  it('[atomic] a write not yet made durable by sync() is invisible to another reader, as after a crash', () => {
    const root = tempRoot()
    const writer = new NodeCheckpointDirectory(root)
    writer.writeFile('agent/manifest.json', bytes('{}\n'))
    const before = new NodeCheckpointDirectory(root, { create: false })
    expect(before.readFile('agent/manifest.json')).toBeUndefined()
    writer.sync()
    const after = new NodeCheckpointDirectory(root, { create: false })
    expect(after.readFile('agent/manifest.json')).toEqual(bytes('{}\n'))
    expect(readdirSync(join(root, 'agent'))).toEqual(['manifest.json'])
  })

  it('[determinism] a run on the real file system gives the trace and the directory bytes of the same run in memory, twice', () => {
    const workplace = loadNodeWorkplaceData()
    for (const scenario of ['happy-path', 'corrupt-snapshot', 'generation-safe-cut'] as const) {
      const config = resolveRunConfig({ scenario, seed: '7', rollouts: 9 })
      const memory = new Map<string, MemoryCheckpointDirectory>()
      const expected = runSimulation(config, {
        digest: nodeDigest,
        workplace,
        openDirectory: (id) =>
          memory
            .set(id, new MemoryCheckpointDirectory({ location: `mem://${id}` }))
            .get(id) as MemoryCheckpointDirectory,
      })
      for (let pass = 0; pass < 2; pass++) {
        const root = tempRoot()
        const real = runSimulation(config, {
          digest: nodeDigest,
          workplace,
          openDirectory: (id) => new NodeCheckpointDirectory(join(root, id)),
        })
        expect(
          JSON.stringify(
            real.events.map((e) => ({ ...e, payload: { ...e.payload, location: undefined } })),
          ),
        ).toBe(
          JSON.stringify(
            expected.events.map((e) => ({ ...e, payload: { ...e.payload, location: undefined } })),
          ),
        )
        for (const [id, dir] of memory) {
          const disk = new NodeCheckpointDirectory(join(root, id), { create: false })
          expect(disk.list().map((e) => e.path)).toEqual(dir.list().map((e) => e.path))
          for (const e of dir.list())
            expect(
              Buffer.from(disk.readFile(e.path) ?? []).equals(
                Buffer.from(dir.readFile(e.path) ?? []),
              ),
              `${scenario} ${id} ${e.path}`,
            ).toBe(true)
        }
      }
    }
  })
})
