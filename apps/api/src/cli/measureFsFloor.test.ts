import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveRunConfig, simulate } from '@cutover/core'
import type { SimulationResult } from '@cutover/core'
import { loadNodeWorkplaceData, NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { measureFsFloor } from './measureFsFloor.ts'
import { listFiles, SyncBatchRecorder } from './SyncBatchRecorder.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const workplace = loadNodeWorkplaceData()

/** A real-FS happy-path run below a fresh folder, its directories recorded; the folder is kept. */
function writtenRun(rollouts: number) {
  const root = mkdtempSync(join(tmpdir(), 'cutover-floor-test-'))
  roots.push(root)
  const recorder = new SyncBatchRecorder()
  const gen = simulate(resolveRunConfig({ scenario: 'happy-path', seed: '0', rollouts }), {
    digest: nodeDigest,
    workplace,
    openDirectory: (id) => recorder.wrap(id, new NodeCheckpointDirectory(join(root, id))),
  })
  let next = gen.next()
  while (next.done !== true) next = gen.next()
  const result: SimulationResult = next.value
  const prefixes = result.checkpoints.map((c) => c.location.slice(root.length + 1))
  return { root, recorder, prefixes }
}

describe('the file-system floor of a checkpoint (fs_floor_ms)', () => {
  it('[bench] the floor writes the same number of files, with the same paths and sizes, as the checkpoint directory it is compared with', () => {
    const { root, recorder, prefixes } = writtenRun(12)
    expect(prefixes.length).toBeGreaterThan(0)
    // What is on disk, read independently of the recorder.
    const onDisk = prefixes
      .flatMap((p) =>
        listFiles(join(root, p)).map((f) => ({ path: `${p}/${f.path}`, bytes: f.bytes })),
      )
      .sort((a, b) => (a.path < b.path ? -1 : 1))
    expect(onDisk.length).toBeGreaterThan(10)

    const layout = recorder.layout(root, prefixes)
    // Every file in exactly one batch, several batches (data before manifests).
    expect(layout.batches.flat().length).toBe(onDisk.length)
    expect(layout.batches.length).toBeGreaterThan(1)

    const floorRoot = mkdtempSync(join(tmpdir(), 'cutover-floor-test-'))
    roots.push(floorRoot)
    const floor = measureFsFloor(layout, floorRoot)
    expect(floor.written).toEqual(onDisk)
    expect(floor.written.reduce((s, f) => s + f.bytes, 0)).toBe(
      onDisk.reduce((s, f) => s + f.bytes, 0),
    )
    expect(floor.ms).toBeGreaterThan(0)
  })
})
