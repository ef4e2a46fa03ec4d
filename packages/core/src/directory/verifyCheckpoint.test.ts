import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { DirectoryWriteError } from './CheckpointDirectory.ts'
import { encodeJsonFile, parseJsonFile } from './jsonFile.ts'
import {
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  TOKEN_STORE_MANIFEST_PATH,
  agentManifestPath,
  agentRecordPath,
  ledgerManifestPath,
  resourcesManifestPath,
  resourcesSnapshotPath,
} from './layout.ts'
import { listNamespaceFiles } from './listNamespaceFiles.ts'
import { loadAgentNamespace } from './loadAgentNamespace.ts'
import { loadAggregateManifest } from './loadAggregateManifest.ts'
import { loadLedgerNamespace } from './loadLedgerNamespace.ts'
import { loadResourcesNamespace } from './loadResourcesNamespace.ts'
import { aggregateIntegrity } from './publishAggregateManifest.ts'
import type { SampleCheckpoint } from './sampleCheckpoint.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from './sampleCheckpoint.ts'
import { verifyCheckpoint } from './verifyCheckpoint.ts'

const digest = nodeDigest

function committed(
  sample: SampleCheckpoint = createSampleCheckpoint(6),
): MemoryCheckpointDirectory {
  const dir = new MemoryCheckpointDirectory()
  const result = commitSampleCheckpoint(dir, digest, sample)
  expect(result.ok).toBe(true)
  return dir
}

const codesAt = (dir: MemoryCheckpointDirectory) =>
  verifyCheckpoint(dir, digest).problems.map((p) => [p.code, p.path])

/** Rewrites a JSON file in place (bypassing the writers), as a hostile or buggy producer would. */
function rewriteJson(
  dir: MemoryCheckpointDirectory,
  path: string,
  edit: (value: Record<string, unknown>) => void,
) {
  const parsed = parseJsonFile(dir.readFile(path) as Uint8Array)
  if (!parsed.ok) throw new Error(parsed.error)
  const value = parsed.value as Record<string, unknown>
  edit(value)
  dir.putRaw(path, encodeJsonFile(value))
}

/**
 * Re-seals the aggregate after a namespace manifest was edited, so only the deeper check can catch
 * it.
 */
function resealAggregate(dir: MemoryCheckpointDirectory, path: string) {
  rewriteJson(dir, AGGREGATE_MANIFEST_PATH, (agg) => {
    const files = agg['files'] as Record<string, string>
    files[path] = digest.sha256Hex(dir.readFile(path) as Uint8Array)
    agg['integrity_sha256'] = aggregateIntegrity(digest, files)
  })
}

describe('verifyCheckpoint', () => {
  it('[layout] round trip: a committed fleet verifies and every reader returns what was written', () => {
    const sample = createSampleCheckpoint(7)
    const dir = committed(sample)
    expect(verifyCheckpoint(dir, digest)).toEqual({
      valid: true,
      problems: [],
      publisher: 'cutover',
    })

    const agent = loadAgentNamespace(dir, digest)
    expect(agent.ok && agent.value.records).toEqual(sample.records)
    const ledger = loadLedgerNamespace(dir, digest, 'policy')
    expect(ledger.ok && ledger.value.rollouts).toEqual(sample.lineage)
    for (const server of ['blackjack', 'counter', 'workplace']) {
      const loaded = loadResourcesNamespace(dir, digest, server)
      expect(loaded.ok && loaded.value.snapshots).toEqual(sample.snapshots[server])
    }
    const aggregate = loadAggregateManifest(dir, digest)
    expect(aggregate.ok).toBe(true)
    if (aggregate.ok) {
      const namespaced = dir.list().filter((e) => /^(agent|model-ledger|resources)\//.test(e.path))
      expect(Object.keys(aggregate.value.manifest.files)).toEqual(namespaced.map((e) => e.path))
      expect(aggregate.value.manifest.integrity_sha256).toBe(
        aggregateIntegrity(digest, aggregate.value.manifest.files),
      )
    }
  })

  it('[integrity] verify reads every file of the directory once: the aggregate checks the hashes the namespaces took', () => {
    const dir = committed(createSampleCheckpoint(12))
    const reads = new Map<string, number>()
    const counting: CheckpointDirectory = {
      location: dir.location,
      writeFile: (path, data) => dir.writeFile(path, data),
      sync: () => dir.sync(),
      list: () => dir.list(),
      readFile: (path) => {
        reads.set(path, (reads.get(path) ?? 0) + 1)
        return dir.readFile(path)
      },
    }
    expect(verifyCheckpoint(counting, digest).valid).toBe(true)
    const namespaced = dir.list().filter((e) => /^(agent|model-ledger|resources)\//.test(e.path))
    expect(namespaced.length).toBeGreaterThan(10)
    for (const e of namespaced) expect(reads.get(e.path), e.path).toBe(1)
  })

  it('[layout] the same content gives byte-identical directories', () => {
    const a = committed()
    const b = committed()
    const bytes = (d: MemoryCheckpointDirectory) =>
      d.list().map((e) => [e.path, digest.sha256Hex(d.readFile(e.path) as Uint8Array)])
    expect(bytes(a)).toEqual(bytes(b))
    expect(new TextDecoder().decode(a.readFile(CHECKPOINT_MARKER_PATH))).toMatch(
      /^\{"aggregate_manifest":.*\}\n$/,
    )
  })

  it('[integrity] a flipped byte in any file is rejected, naming that file', () => {
    const paths = committed()
      .list()
      .map((e) => e.path)
    expect(paths.length).toBeGreaterThan(10)
    for (const path of paths) {
      for (const index of [0, 1_000_003]) {
        const dir = committed()
        dir.flipByte(path, index)
        const report = verifyCheckpoint(dir, digest)
        expect(report.valid, path).toBe(false)
        const named = report.problems.filter((p) => p.path === path)
        expect(named.length, `${path}: ${JSON.stringify(report.problems)}`).toBeGreaterThan(0)
        expect(
          named.map((p) => p.code).some((c) => c === 'digest_mismatch' || c === 'schema_error'),
          path,
        ).toBe(true)
      }
    }
  })

  it('[manifest-last] a missing aggregate manifest or global marker is a torn commit', () => {
    for (const path of [
      AGGREGATE_MANIFEST_PATH,
      CHECKPOINT_MARKER_PATH,
      TOKEN_STORE_MANIFEST_PATH,
    ]) {
      const dir = committed()
      dir.remove(path)
      expect(codesAt(dir)).toContainEqual(['missing_manifest', path])
    }
  })

  it('[integrity] a missing participant manifest is rejected', () => {
    for (const path of [
      agentManifestPath(),
      ledgerManifestPath('policy'),
      resourcesManifestPath('counter'),
    ]) {
      const dir = committed()
      dir.remove(path)
      expect(codesAt(dir)).toContainEqual(['missing_manifest', path])
    }
  })

  it('[integrity] a listed file that is gone is missing_file', () => {
    const dir = committed()
    const path = resourcesSnapshotPath('counter', { rollout_id: 'r1', attempt_index: 0 })
    dir.remove(path)
    expect(codesAt(dir)).toContainEqual(['missing_file', path])
  })

  it('[integrity] an edited aggregate files map is an integrity_mismatch', () => {
    const dir = committed()
    rewriteJson(dir, AGGREGATE_MANIFEST_PATH, (agg) => {
      const files = agg['files'] as Record<string, string>
      files['agent/manifest.json'] = '0'.repeat(64)
    })
    const codes = codesAt(dir)
    expect(codes).toContainEqual(['integrity_mismatch', AGGREGATE_MANIFEST_PATH])
    expect(codes).toContainEqual(['digest_mismatch', AGGREGATE_MANIFEST_PATH])
  })

  it('[paths] a manifest path with .. or an absolute path is path_escape', () => {
    const cases: [string, string][] = [
      ['../outside.json', 'agent/../outside.json'],
      ['/etc/passwd', 'agent//etc/passwd'],
      ['..\\evil.json', 'agent/..\\evil.json'],
    ]
    for (const [name, reported] of cases) {
      const dir = committed()
      rewriteJson(dir, agentManifestPath(), (m) => {
        ;(m['files'] as Record<string, string>)[name] = '0'.repeat(64)
      })
      resealAggregate(dir, agentManifestPath())
      expect(codesAt(dir), name).toContainEqual(['path_escape', reported])
    }
    for (const path of ['../escape.json', '/abs/path.json', 'agent/./r0.a0.json']) {
      const dir = committed()
      rewriteJson(dir, AGGREGATE_MANIFEST_PATH, (agg) => {
        const files = agg['files'] as Record<string, string>
        files[path] = '0'.repeat(64)
        agg['integrity_sha256'] = aggregateIntegrity(digest, files)
      })
      expect(codesAt(dir), path).toContainEqual(['path_escape', path])
    }
  })

  it('[paths] a symlink anywhere is rejected (memory port)', () => {
    const dir = committed()
    const path = resourcesSnapshotPath('blackjack', { rollout_id: 'r0', attempt_index: 0 })
    dir.putSymlink(path, '/etc/passwd')
    const codes = codesAt(dir)
    expect(codes).toContainEqual(['symlink', path])
  })

  it('[integrity] an unlisted file is rejected, inside a namespace or beside the manifests', () => {
    for (const path of [
      'resources/counter/r9.a0.json',
      'agent/notes.txt',
      'stray.bin',
      'model-ledger/other/x.jsonl',
    ]) {
      const dir = committed()
      dir.putRaw(path, new Uint8Array([1, 2, 3]))
      expect(codesAt(dir), path).toContainEqual(['unlisted_file', path])
    }
  })

  it('[restore-all-or-nothing] a snapshot set that does not match the agent boundaries is incomplete_set', () => {
    // Commit a fleet whose counter namespace lacks one session the agent references.
    const sample = createSampleCheckpoint(6)
    const counter = sample.snapshots['counter'] ?? []
    const short: SampleCheckpoint = {
      ...sample,
      snapshots: { ...sample.snapshots, counter: counter.slice(1) },
    }
    const dir = new MemoryCheckpointDirectory()
    const refused = commitSampleCheckpoint(dir, digest, short)
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.error.code).toBe('resource_revision_mismatch')
      expect(refused.error.problems.map((p) => p.code)).toContain('incomplete_set')
    }
    // The same gap smuggled into a published checkpoint is caught by verify.
    const published = committed(sample)
    const missing = counter[0]
    if (!missing) throw new Error('fixture has counter sessions')
    const victim = resourcesSnapshotPath('counter', missing)
    published.remove(victim)
    rewriteJson(published, resourcesManifestPath('counter'), (m) => {
      delete (m['files'] as Record<string, string>)[victim.split('/').pop() as string]
    })
    expect(codesAt(published)).toContainEqual(['incomplete_set', agentRecordPath(missing)])
  })

  it('[restore-all-or-nothing] a snapshot revision that differs from the boundary is revision_mismatch', () => {
    const sample = createSampleCheckpoint(6)
    const bumped = (sample.snapshots['workplace'] ?? []).map((s, i) =>
      i === 0 ? { ...s, state_revision: s.state_revision + 1 } : s,
    )
    const dir = new MemoryCheckpointDirectory()
    const refused = commitSampleCheckpoint(dir, digest, {
      ...sample,
      snapshots: { ...sample.snapshots, workplace: bumped },
    })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error.code).toBe('resource_revision_mismatch')
    // Nothing was published: verify reports the torn directory.
    const codes = codesAt(dir)
    expect(codes).toContainEqual(['missing_manifest', AGGREGATE_MANIFEST_PATH])
    const first = bumped[0]
    if (!first) throw new Error('fixture has workplace sessions')
    expect(codes).toContainEqual(['revision_mismatch', resourcesSnapshotPath('workplace', first)])
  })

  it('[manifest-last] for every k, a crash on the k-th write keeps exactly the writes synced before it, is rejected, and a retry completes to a valid directory', () => {
    const sample = createSampleCheckpoint(5)
    const probe = new MemoryCheckpointDirectory()
    // The commit's write/sync sequence: a crash loses what was written since the last sync.
    const steps: (string | null)[] = []
    const recorder: CheckpointDirectory = {
      location: probe.location,
      writeFile: (path, data) => {
        steps.push(path)
        probe.writeFile(path, data)
      },
      sync: () => {
        steps.push(null)
        probe.sync()
      },
      readFile: (path) => probe.readFile(path),
      list: () => probe.list(),
    }
    expect(commitSampleCheckpoint(recorder, digest, sample).ok).toBe(true)
    const totalWrites = probe.writeCount
    expect(totalWrites).toBe(probe.list().length)
    const reference = probe
      .list()
      .map((e) => [e.path, digest.sha256Hex(probe.readFile(e.path) as Uint8Array)])
    const durableBeforeWrite = (k: number): Set<string> => {
      const durable = new Set<string>()
      let pending: string[] = []
      let writes = 0
      for (const step of steps) {
        if (step === null) {
          for (const p of pending) durable.add(p)
          pending = []
        } else if (++writes === k) break
        else pending.push(step)
      }
      return durable
    }
    for (let k = 1; k <= totalWrites; k++) {
      const crashing = new MemoryCheckpointDirectory({ failOnWrite: k })
      expect(() => commitSampleCheckpoint(crashing, digest, sample), `k=${k}`).toThrow(
        DirectoryWriteError,
      )
      const durable = durableBeforeWrite(k)
      // Earlier synced writes in place with their final bytes; unsynced ones and the k-th absent.
      expect(
        crashing
          .list()
          .map((e) => [e.path, digest.sha256Hex(crashing.readFile(e.path) as Uint8Array)]),
        `k=${k}`,
      ).toEqual(reference.filter(([path]) => durable.has(path as string)))
      expect(verifyCheckpoint(crashing, digest).valid, `k=${k}`).toBe(false)
      const retry = crashing.reopen()
      const result = commitSampleCheckpoint(retry, digest, sample)
      expect(result.ok, `k=${k}: ${JSON.stringify(result)}`).toBe(true)
      expect(verifyCheckpoint(retry, digest), `k=${k}`).toEqual({
        valid: true,
        problems: [],
        publisher: 'cutover',
      })
      expect(
        retry.list().map((e) => [e.path, digest.sha256Hex(retry.readFile(e.path) as Uint8Array)]),
      ).toEqual(reference)
    }
  })

  it('[manifest-last] a commit syncs per namespace and per manifest, not per file', () => {
    const dir = committed(createSampleCheckpoint(30))
    // agent, ledger and three resources namespaces: 2 syncs each; aggregate, token store, marker: 1
    // each.
    expect(dir.syncCount).toBe(5 * 2 + 3)
    expect(dir.writeCount).toBe(dir.list().length)
  })

  it('[integrity] a record whose content names another execution is a schema_error', () => {
    const dir = committed()
    const path = agentRecordPath({ rollout_id: 'r0', attempt_index: 0 })
    rewriteJson(dir, path, (r) => {
      r['attempt_index'] = 5
    })
    rewriteJson(dir, agentManifestPath(), (m) => {
      ;(m['files'] as Record<string, string>)['r0.a0.json'] = digest.sha256Hex(
        dir.readFile(path) as Uint8Array,
      )
    })
    resealAggregate(dir, path)
    resealAggregate(dir, agentManifestPath())
    expect(codesAt(dir)).toContainEqual(['schema_error', path])
  })

  it('[relay-once] a ledger whose continuation roots differ from the agent records is incomplete_set', () => {
    const sample = createSampleCheckpoint(4)
    const dir = committed(sample)
    rewriteJson(dir, ledgerManifestPath('policy'), (m) => {
      m['continuation_roots_sha256'] = 'f'.repeat(64)
    })
    resealAggregate(dir, ledgerManifestPath('policy'))
    expect(codesAt(dir)).toContainEqual(['incomplete_set', ledgerManifestPath('policy')])
  })

  it('[manifest-last] the token store must hold every staging key the ledger references', () => {
    const dir = committed()
    rewriteJson(dir, TOKEN_STORE_MANIFEST_PATH, (m) => {
      m['staging_keys'] = (m['staging_keys'] as string[]).slice(1)
    })
    const codes = codesAt(dir)
    expect(codes).toContainEqual(['incomplete_set', TOKEN_STORE_MANIFEST_PATH])
    expect(codes).toContainEqual(['digest_mismatch', TOKEN_STORE_MANIFEST_PATH])
  })

  it('[immutable] a second checkpoint committed into a published directory is refused and changes nothing', () => {
    const dir = committed(createSampleCheckpoint(3, { checkpoint_id: 'ckpt-A' }))
    const before = dir
      .list()
      .map((e) => [e.path, digest.sha256Hex(dir.readFile(e.path) as Uint8Array)])
    const other = commitSampleCheckpoint(
      dir,
      digest,
      createSampleCheckpoint(3, { checkpoint_id: 'ckpt-B' }),
    )
    expect(!other.ok && other.error.code).toBe('agent_checkpoint_error')
    expect(
      dir.list().map((e) => [e.path, digest.sha256Hex(dir.readFile(e.path) as Uint8Array)]),
    ).toEqual(before)
    expect(verifyCheckpoint(dir, digest).valid).toBe(true)
  })

  it('[manifest-last] crash and retry converge for fleets of 0 to 4 rollouts at every k', () => {
    for (let rollouts = 0; rollouts <= 4; rollouts++) {
      const sample = createSampleCheckpoint(rollouts, { checkpoint_id: `ckpt-${rollouts}` })
      const probe = new MemoryCheckpointDirectory()
      expect(commitSampleCheckpoint(probe, digest, sample).ok).toBe(true)
      for (let k = 1; k <= probe.writeCount; k++) {
        const crashing = new MemoryCheckpointDirectory({ failOnWrite: k })
        expect(() => commitSampleCheckpoint(crashing, digest, sample)).toThrow(DirectoryWriteError)
        expect(verifyCheckpoint(crashing, digest).valid, `n=${rollouts} k=${k}`).toBe(false)
        // A second crash during the retry, one write further in, still converges on the third try.
        const second = crashing.reopen({ failOnWrite: 2 })
        try {
          commitSampleCheckpoint(second, digest, sample)
        } catch (e) {
          expect(e).toBeInstanceOf(DirectoryWriteError)
        }
        const third = second.reopen()
        expect(commitSampleCheckpoint(third, digest, sample).ok, `n=${rollouts} k=${k}`).toBe(true)
        expect(verifyCheckpoint(third, digest).valid, `n=${rollouts} k=${k}`).toBe(true)
      }
    }
  })

  it('[corrupt_file] the index-th data file of a namespace is what the fault flips', () => {
    const dir = committed(createSampleCheckpoint(6))
    const files = listNamespaceFiles(dir, 'resources')
    expect(files).toHaveLength(6)
    expect(files.every((p) => !p.endsWith('manifest.json'))).toBe(true)
    const target = files[4] as string
    dir.flipByte(target, 0)
    expect(codesAt(dir).filter(([, path]) => path === target).length).toBeGreaterThan(0)
  })
})
