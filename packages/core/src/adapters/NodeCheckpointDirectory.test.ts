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
import {
  NodeCheckpointDirectory,
  TEMP_PREFIX,
  fileSystemErrorCode,
} from './NodeCheckpointDirectory.ts'
import { directoryWriteCode } from '../directory/CheckpointDirectory.ts'
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

describe('NodeCheckpointDirectory after a killed writer', () => {
  /** What a SIGKILLed writer leaves: its temp files, under the names the old scheme used too. */
  const leftovers = (root: string, folder: string): string[] => {
    const names = [
      `${TEMP_PREFIX}manifest.json-${process.pid}-0`,
      `${TEMP_PREFIX}manifest.json-${process.pid}-1`,
      `${TEMP_PREFIX}manifest.json-99999-1`,
    ]
    mkdirSync(join(root, folder), { recursive: true })
    for (const name of names) writeFileSync(join(root, folder, name), '{"half":')
    return names.map((n) => `${folder}/${n}`)
  }

  it('[directory.temp-files-repaired] a retried commit removes the temp files a killed writer left and leaves a directory that verifies', () => {
    const root = tempRoot()
    const sample = createSampleCheckpoint(5)
    expect(commitSampleCheckpoint(new NodeCheckpointDirectory(root), nodeDigest, sample).ok).toBe(
      true,
    )
    const left = [...leftovers(root, 'token-store'), ...leftovers(root, 'resources/counter')]
    const torn = new NodeCheckpointDirectory(root, { create: false })
    expect(
      verifyCheckpoint(torn, nodeDigest)
        .problems.filter((p) => p.code === 'unlisted_file')
        .map((p) => p.path)
        .sort(),
    ).toEqual(left.sort())
    // The retry: the same commit again over the same directory (new objects, as a new process).
    expect(commitSampleCheckpoint(new NodeCheckpointDirectory(root), nodeDigest, sample).ok).toBe(
      true,
    )
    const repaired = new NodeCheckpointDirectory(root, { create: false })
    expect(repaired.list().filter((e) => e.path.includes(TEMP_PREFIX))).toEqual([])
    expect(verifyCheckpoint(repaired, nodeDigest)).toMatchObject({ valid: true, problems: [] })
  })

  it("[directory.temp-files-repaired] temp names are unique across objects and attempts of one process: an earlier attempt's temp never collides", () => {
    const root = tempRoot()
    const a = new NodeCheckpointDirectory(root)
    const b = new NodeCheckpointDirectory(root)
    a.writeFile('agent/manifest.json', bytes('{"a":1}\n'))
    b.writeFile('resources/x/manifest.json', bytes('{"b":1}\n'))
    const c = new NodeCheckpointDirectory(root)
    c.writeFile('resources/y/manifest.json', bytes('{"c":1}\n'))
    const temps = [
      ...readdirSync(join(root, 'agent')),
      ...readdirSync(join(root, 'resources/x')),
      ...readdirSync(join(root, 'resources/y')),
    ].map((n) => n.slice(n.indexOf('manifest.json-') + 'manifest.json-'.length))
    expect(new Set(temps).size).toBe(3)
    for (const t of temps) expect(t).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{8}-\\d+$`))
  })

  it('[directory.temp-files-repaired] a failed sync takes its temp files with it', () => {
    const root = tempRoot()
    const dir = new NodeCheckpointDirectory(root)
    dir.writeFile('agent/r0.a0.json', bytes('{"a":1}\n'))
    // The target's name is taken by a folder: the rename fails, as a disk error would.
    mkdirSync(join(root, 'agent/r0.a0.json/inside'), { recursive: true })
    expect(() => dir.sync()).toThrow(DirectoryWriteError)
    expect(readdirSync(join(root, 'agent')).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([])
  })

  it('[directory.checkpoint-dir-invalid] a checkpoint directory that is a file, lies under one or is a symlink is refused with checkpoint_dir_invalid', () => {
    const root = tempRoot()
    writeFileSync(join(root, 'file'), 'x')
    mkdirSync(join(root, 'real'))
    symlinkSync(join(root, 'real'), join(root, 'link'))
    for (const [path, create] of [
      ['file', true],
      ['file/ck', true],
      ['file', false],
      ['link', false],
      ['link', true],
    ] as const) {
      let thrown: unknown
      try {
        new NodeCheckpointDirectory(join(root, path), { create })
      } catch (e) {
        thrown = e
      }
      expect(thrown, path).toBeInstanceOf(DirectoryWriteError)
      expect(directoryWriteCode(thrown), path).toBe('checkpoint_dir_invalid')
    }
    const dir = new NodeCheckpointDirectory(join(root, 'real'))
    writeFileSync(join(root, 'real/agent'), 'not a folder')
    let thrown: unknown
    try {
      dir.writeFile('agent/r0.a0.json', bytes('{}'))
    } catch (e) {
      thrown = e
    }
    expect(directoryWriteCode(thrown)).toBe('checkpoint_dir_invalid')
  })

  it('[directory.storage-full] a full disk or quota is storage_full, whichever call meets it', () => {
    const fsError = (code: string) => Object.assign(new Error(`${code}: no space`), { code })
    expect(fileSystemErrorCode(fsError('ENOSPC'))).toBe('storage_full')
    expect(fileSystemErrorCode(fsError('EDQUOT'))).toBe('storage_full')
    expect(fileSystemErrorCode(fsError('ENOTDIR'))).toBe('checkpoint_dir_invalid')
    expect(fileSystemErrorCode(fsError('EACCES'))).toBeUndefined()
  })
})
