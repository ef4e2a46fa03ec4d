import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { RecordedCheck, RunView } from '@cutover/core/contracts'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { REPO_ROOT } from '../repoPaths.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import { importRecording } from './importRecording.ts'

const data = mkdtempSync(join(tmpdir(), 'cutover-import-'))
const store = createFileRunStore(data, (p, create) => new NodeCheckpointDirectory(p, { create }))
const fixtures = join(REPO_ROOT, 'vendor', 'real_stack')
let n = 0

afterAll(() => rmSync(data, { recursive: true, force: true }))

function imported(folder: string, checkpointDirs: string[] = []): RunView {
  const result = importRecording({
    file: join(fixtures, folder, 'exchanges.jsonl'),
    runId: `imp${String(n++).padStart(8, '0')}`,
    store,
    createdAt: '2026-12-01T00:00:00.000Z',
    checkpointDirs,
    cwd: join(fixtures, folder),
    secrets: [],
  })
  if (!result.ok) throw new Error(JSON.stringify(result.error))
  return result.value
}
const check = (view: RunView, id: string): RecordedCheck | undefined =>
  view.recording?.checks.find((c) => c.id === id)

describe('cutover import of the real stack’s recordings', () => {
  it("[recorded.checks] d1-unadapted: the run names the 400 at the agent's prepare", () => {
    const view = imported('d1-unadapted')
    expect(view).toMatchObject({
      kind: 'recorded',
      status: 'complete',
      events: 29,
      outcome: 'aborted',
    })
    expect(check(view, 'control-accepted')).toMatchObject({ status: 'fail', exchange: 6 })
    expect(check(view, 'control-accepted')?.message).toMatch(
      /agent-checkpoint\/prepare \(exchange 6\) answered 400 invalid_request: invalid prepare body: schema_version/,
    )
  })

  it('[recorded.checks] d1-adapted-cycle: the whole cycle, its directory published and verifying', () => {
    const view = imported('d1-adapted-cycle')
    expect(view.outcome).toBe('completed')
    expect(view.recording?.checks.filter((c) => c.status === 'fail')).toEqual([])
    expect(view.recording?.directories).toEqual([
      {
        checkpoint_id: 'ck-real-1',
        path: join(fixtures, 'd1-adapted-cycle', 'data', 'ck-real-1'),
        exists: true,
        published: true,
      },
    ])
    expect(check(view, 'published-after-commit')?.status).toBe('pass')
    expect(check(view, 'commit-verifies')?.status).toBe('pass')
    expect(check(view, 'manifest-participants')?.status).toBe('pass')
    // The checked-out manifest's time says nothing about the order.
    expect(check(view, 'committed-before-manifest')?.status).toBe('not_observed')
    expect(view.recording?.participants).toEqual([
      'agent',
      'policy',
      'blackjack',
      'counter',
      'workplace',
    ])
  })

  it('[recorded.checks] d1-restore-cutover-checkpoint: the manifest names policy_model and resources_<env>, the fleet names policy and the servers', () => {
    const view = imported('d1-restore-cutover-checkpoint', ['data/ck-1'])
    const c = check(view, 'manifest-participants')
    expect(c).toMatchObject({ status: 'fail', exchange: 5 })
    expect(c?.message).toMatch(
      /policy_model.*resources_blackjack.*capabilities name .*blackjack.*policy/,
    )
  })

  it('[recorded.checks] d2-commit-real-resources: every commit answered 200, nothing published; the real resources files, schema 1, verify', () => {
    const view = imported('d2-commit-real-resources', ['data/ck-d2-1'])
    expect(check(view, 'published-after-commit')).toMatchObject({ status: 'fail', exchange: 45 })
    // What the real resources participant wrote (ResourceSnapshot schema 1) is read since #24:
    // the recorded refusal was Cutover's, not the participant's.
    expect(check(view, 'commit-verifies')?.status).toBe('pass')
  })

  it('[recorded.checks] d2-restore-real-resources: resumed before every restore, the fleet left half restored', () => {
    const view = imported('d2-restore-real-resources', ['data/ck-1'])
    expect(check(view, 'resume-after-restore')).toMatchObject({ status: 'fail', exchange: 19 })
    expect(view.invariants['resume-order']).toBe('fail')
    expect(view.failures).toEqual([expect.objectContaining({ id: 'resume-order', step: 19 })])
  })

  it('[import.malformed-line] a line that is not an exchange: refused naming the line, nothing stored', () => {
    const file = join(data, 'bad.jsonl')
    const good = readFileSync(join(fixtures, 'd1-unadapted', 'exchanges.jsonl'), 'utf8').split('\n')
    writeFileSync(file, `${good[0]}\n${good[1]}\n{"participant": "agent", "method": "GET"}\n`)
    const before = store.listRuns().runs.length
    const result = importRecording({
      file,
      runId: 'impbad000000',
      store,
      createdAt: '2026-12-01T00:00:00.000Z',
      checkpointDirs: [],
      cwd: data,
      secrets: [],
    })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error).toMatchObject({ kind: 'malformed', line: 3 })
      expect(result.error.kind === 'malformed' && result.error.message).toMatch(
        /line 3 is not an exchange: it has no path/,
      )
    }
    expect(store.listRuns().runs.length).toBe(before)
  })

  it('[record.crash-safe] a recording truncated mid-line: the cut line is reported, every line before it kept', () => {
    const file = join(data, 'torn.jsonl')
    const text = readFileSync(join(fixtures, 'd1-unadapted', 'exchanges.jsonl'), 'utf8')
    const lines = text.split('\n')
    writeFileSync(file, `${lines.slice(0, 6).join('\n')}\n${(lines[6] as string).slice(0, 50)}`)
    const result = importRecording({
      file,
      runId: 'imptorn00000',
      store,
      createdAt: '2026-12-01T00:00:00.000Z',
      checkpointDirs: [],
      cwd: data,
      secrets: ['Bearer'],
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value.events).toBe(6)
    expect(result.value.recording?.problems).toEqual([
      {
        line: 7,
        message: expect.stringMatching(/line 7 is cut short .*the 6 exchanges before it are kept/),
      },
    ])
    expect(check(result.value, 'control-accepted')).toMatchObject({ status: 'fail', exchange: 6 })
    // Stored again, it reads back the same.
    expect(store.readRun('imptorn00000')?.recording?.problems).toHaveLength(1)
  })
})
