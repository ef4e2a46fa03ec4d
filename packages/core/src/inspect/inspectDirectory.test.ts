import { describe, expect, it } from 'vitest'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { parseJsonFile, encodeJsonFile } from '../directory/jsonFile.ts'
import { PROBLEM_CODES } from '../directory/problems.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { parseWorkplaceBase } from '../environments/workplace/WorkplaceData.ts'
import { createWorkplaceCodec } from '../environments/workplace/workplaceCodec.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { inspectDirectory } from './inspectDirectory.ts'
import { snapshotTables } from './snapshotTables.ts'

const data = loadNodeWorkplaceData()
const base = parseWorkplaceBase(data, nodeDigest)

/** The first checkpoint directory of a simulated run, in memory. */
function simulatedCheckpoint(
  scenario:
    | 'happy-path'
    | 'straggler-retirement'
    | 'generation-safe-cut'
    | 'completed-before-egress' = 'happy-path',
): MemoryCheckpointDirectory {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  runSimulation(resolveRunConfig({ scenario, seed: 7, rollouts: 18 }), {
    digest: nodeDigest,
    workplace: data,
    openDirectory: (id) => {
      const dir = dirs.get(id) ?? new MemoryCheckpointDirectory({ location: `memory:${id}` })
      dirs.set(id, dir)
      return dir
    },
  })
  const first = [...dirs.entries()].find(([id]) => !id.startsWith('baseline-'))
  if (first === undefined) throw new Error('the run committed no checkpoint')
  return first[1]
}

/** A copy of `dir` with one byte of `path` flipped (bypassing the writers). */
function flipped(dir: MemoryCheckpointDirectory, path: string): MemoryCheckpointDirectory {
  const copy = new MemoryCheckpointDirectory({ location: 'memory:flipped' })
  for (const e of dir.list()) {
    const bytes = new Uint8Array(dir.readFile(e.path) as Uint8Array)
    const at = Math.floor(bytes.length / 2)
    if (e.path === path) bytes[at] = (bytes[at] ?? 0) ^ 0x01
    copy.writeFile(e.path, bytes)
  }
  return copy
}

describe('inspectDirectory', () => {
  it('[inspect] a simulated checkpoint: valid, sessions of every environment, boundaries, lineage and a write-order timeline', () => {
    const dir = simulatedCheckpoint()
    const view = inspectDirectory(dir, nodeDigest, base)
    expect(view.valid).toBe(true)
    expect(view.problems).toEqual([])
    expect(view.checkpoint_id).not.toBeNull()
    expect(new Set(view.sessions.map((s) => s.row.environment))).toEqual(
      new Set(['blackjack', 'counter', 'workplace']),
    )
    const bj = view.sessions.find((s) => s.detail.kind === 'blackjack')
    expect(bj?.detail.kind === 'blackjack' && bj.detail.rng_position).toBeGreaterThan(0)
    expect(bj?.row.summary).toMatch(/rng \d+\/624/)
    expect(view.sessions.every((s) => s.verified)).toBe(true)
    expect(view.boundaries.length).toBeGreaterThan(0)
    expect(view.lineage.rollouts.length).toBeGreaterThan(0)
    expect(view.lineage.roots.length).toBeGreaterThan(0)
    // the marker is last; each namespace's manifest after its data files
    const order = view.timeline.map((t) => t.path)
    expect(order.at(-1)).toBe('checkpoint.json')
    expect(order.indexOf('nemo_gym_checkpoint_manifest.json')).toBeGreaterThan(
      order.indexOf('agent/manifest.json'),
    )
    expect(order.indexOf('agent/manifest.json')).toBeGreaterThan(
      order.findIndex((p) => p.startsWith('agent/r')),
    )
    expect(view.timeline.every((t) => t.order !== null)).toBe(true)
  })

  it('[inspect] a flipped byte: the verify problem on exactly that file, the rest still shown', () => {
    const dir = simulatedCheckpoint()
    const target = dir.list().find((e) => e.path.startsWith('resources/counter/r'))?.path as string
    const damaged = flipped(dir, target)
    const view = inspectDirectory(damaged, nodeDigest, base)
    expect(view.valid).toBe(false)
    expect(view.problems).toEqual(verifyCheckpoint(damaged, nodeDigest).problems)
    expect(view.files.find((f) => f.path === target)?.problems).toContain('digest_mismatch')
    expect(view.files.filter((f) => f.problems.length > 0).map((f) => f.path)).toContain(target)
    expect(view.sessions.some((s) => s.row.environment === 'workplace')).toBe(true)
  })

  it('[inspect] a damaged or missing snapshot is still a session, marked with its problem and file', () => {
    const dir = simulatedCheckpoint()
    const whole = inspectDirectory(dir, nodeDigest, base)
    const target = dir.list().find((e) => e.path.startsWith('resources/counter/r'))?.path as string
    // a byte that breaks the JSON itself: the snapshot no longer decodes
    const broken = new MemoryCheckpointDirectory({ location: 'memory:broken' })
    for (const e of dir.list())
      broken.writeFile(
        e.path,
        e.path === target
          ? new TextEncoder().encode('{"not json')
          : (dir.readFile(e.path) as Uint8Array),
      )
    const view = inspectDirectory(broken, nodeDigest, base)
    expect(view.sessions).toHaveLength(whole.sessions.length)
    const row = view.sessions.find((s) => s.file === target)
    expect(row?.problem?.code).toBe('digest_mismatch')
    expect(row?.row).toMatchObject({ state: 'uncertain', revision: null })
    expect(row?.verified).toBe(false)
    expect(row?.detail.kind).toBe('unreadable')
    // the file gone altogether: still listed, as missing
    const gone = new MemoryCheckpointDirectory({ location: 'memory:gone' })
    for (const e of dir.list())
      if (e.path !== target) gone.writeFile(e.path, dir.readFile(e.path) as Uint8Array)
    const missing = inspectDirectory(gone, nodeDigest, base).sessions.find((s) => s.file === target)
    expect(missing?.problem?.code).toBe('missing_file')
    // a readable snapshot whose digest fails keeps its decoded state and carries the problem
    // an agent boundary record likewise stays in Boundaries
    const record = dir.list().find((e) => /^agent\/r.*\.json$/.test(e.path))?.path as string
    const noRecord = new MemoryCheckpointDirectory({ location: 'memory:no-record' })
    for (const e of dir.list())
      if (e.path !== record) noRecord.writeFile(e.path, dir.readFile(e.path) as Uint8Array)
    const boundaries = inspectDirectory(noRecord, nodeDigest, base).boundaries
    expect(boundaries).toHaveLength(whole.boundaries.length)
    expect(boundaries.find((b) => b.file === record)?.problem?.code).toBe('missing_file')
    const flippedView = inspectDirectory(flipped(dir, target), nodeDigest, base)
    expect(flippedView.sessions).toHaveLength(whole.sessions.length)
    expect(flippedView.sessions.find((s) => s.file === target)?.problem).toBeDefined()
  })

  it('[inspect] a missing manifest and a stray file: named, placed, never thrown', () => {
    const dir = simulatedCheckpoint()
    const copy = new MemoryCheckpointDirectory({ location: 'memory:partial' })
    for (const e of dir.list())
      if (e.path !== 'checkpoint.json') copy.writeFile(e.path, dir.readFile(e.path) as Uint8Array)
    copy.writeFile('notes.txt', new TextEncoder().encode('hello'))
    const view = inspectDirectory(copy, nodeDigest, base)
    expect(view.problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(['missing_manifest', 'unlisted_file']),
    )
    expect(view.timeline.find((t) => t.path === 'notes.txt')?.order).toBeNull()
    expect(view.timeline.find((t) => t.path === 'checkpoint.json')?.note).toMatch(/missing/)
    expect(view.problems.every((p) => (PROBLEM_CODES as readonly string[]).includes(p.code))).toBe(
      true,
    )
  })

  it('[inspect] Workplace tables: the delta form and the full pandas "split" form show the same tables', () => {
    const dir = simulatedCheckpoint()
    const path = dir.list().find((e) => e.path.startsWith('resources/workplace/r'))?.path as string
    const snapshot = parseJsonFile(dir.readFile(path) as Uint8Array)
    if (!snapshot.ok) throw new Error(snapshot.error)
    const state = (snapshot.value as { state: never }).state
    const codec = createWorkplaceCodec(base)
    const session = codec.restoreState(state)
    if (!session.ok) throw new Error(session.error.message)
    const full = createWorkplaceCodec(base, { form: 'full' }).exportState(session.value)
    if (!full.ok) throw new Error(full.error.message)
    const fromDelta = snapshotTables(base, state)
    const fromFull = snapshotTables(base, full.value)
    expect(fromDelta.ok && fromFull.ok).toBe(true)
    expect(fromFull).toEqual(fromDelta)
    // and inspectDirectory reads the full form from disk
    const copy = new MemoryCheckpointDirectory({ location: 'memory:full' })
    for (const e of dir.list()) {
      const bytes =
        e.path === path
          ? encodeJsonFile({ ...(snapshot.value as object), state: full.value })
          : (dir.readFile(e.path) as Uint8Array)
      copy.writeFile(e.path, bytes)
    }
    const row = inspectDirectory(copy, nodeDigest, base).sessions.find((s) => s.file === path)
    expect(row?.detail).toMatchObject({ kind: 'workplace', form: 'full' })
  })

  it('[inspect] straggler-retirement: the ledger tombstones the retired attempt and the lineage marks it fenced', () => {
    const view = inspectDirectory(simulatedCheckpoint('straggler-retirement'), nodeDigest, base)
    expect(view.lineage.tombstones.length).toBeGreaterThan(0)
    const fenced = view.lineage.rollouts.flatMap((r) =>
      r.attempts.filter((a) => a.status === 'fenced'),
    )
    expect(fenced.length).toBeGreaterThan(0)
  })

  it('[inspect] a generation-safe checkpoint: its segments with digest status, the ledger\'s generation_cut records, and "cut at token k" on the call in the lineage', () => {
    const dir = simulatedCheckpoint('generation-safe-cut')
    const view = inspectDirectory(dir, nodeDigest, base)
    expect(view.valid).toBe(true)
    // 18 rollouts: ids are r00…r17, the straggler is r00.
    const cut = view.generation_cuts?.find((c) => c.rollout_id === 'r00')
    expect(cut).toMatchObject({
      attempt: 0,
      disposition: 'durable_prefix',
      cut_kind: 'active_prefix',
      continued_by: null,
    })
    expect(cut?.prefix_token_count).toBeGreaterThan(0)
    expect(view.segments).toEqual([
      expect.objectContaining({
        model_call_id: cut?.model_call_id,
        token_count: cut?.prefix_token_count,
        status: 'ok',
        staging_key: cut?.staging_keys[0],
      }),
    ])
    const call = view.lineage.rollouts
      .find((r) => r.rollout_id === 'r00')
      ?.attempts.find((a) => a.attempt === 0)
      ?.calls.find((c) => c.model_call_id === cut?.model_call_id)
    expect(call?.generation_cut).toMatchObject({
      disposition: 'durable_prefix',
      prefix_token_count: cut?.prefix_token_count,
      prefix_digest: cut?.prefix_digest,
    })
    // A flipped byte in the segment: its status says so, and verify names the file.
    const path = view.segments?.[0]?.path as string
    const damaged = inspectDirectory(flipped(dir, path), nodeDigest, base)
    expect(damaged.segments?.[0]?.status).toBe('digest_mismatch')
    expect(damaged.files.find((f) => f.path === path)?.problems).toContain('segment_mismatch')
    expect(damaged.generation_cuts).toEqual(view.generation_cuts)
  })

  it('[inspect] a whole-request checkpoint has no segments and no generation cuts (its view is as before)', () => {
    const view = inspectDirectory(simulatedCheckpoint(), nodeDigest, base)
    expect('segments' in view).toBe(false)
    expect('generation_cuts' in view).toBe(false)
    expect(
      view.lineage.rollouts
        .flatMap((r) => r.attempts.flatMap((a) => a.calls))
        .some((c) => 'generation_cut' in c),
    ).toBe(false)
  })
})
