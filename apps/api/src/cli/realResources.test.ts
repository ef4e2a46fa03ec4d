// Cutover's controller (`cutover checkpoint …`) against the real Gym resources participant's
// generation that ran in vendor/real_stack/d2-*: a stand-in that answers as the recorded
// participant did and writes its recorded v1 files (testing/fakeRealResources.ts; the real one
// needs pydantic v2 and FastAPI, not installed here), beside Cutover's own model and agent.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AggregateManifest } from '@cutover/core'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'
import type { FakeResources } from '../testing/fakeRealResources.ts'
import { RECORDED_CHECKPOINT_ID, startFakeRealResources } from '../testing/fakeRealResources.ts'

const TOKEN = 'test-token-real-resources'
const dataDir = mkdtempSync(join(tmpdir(), 'cutover-real-resources-'))
const processes: ParticipantProcess[] = []
const fakes: FakeResources[] = []
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()))
  await Promise.all(fakes.map((f) => f.close()))
  rmSync(dataDir, { recursive: true, force: true })
})

function cutover(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CUTOVER_BIN, ...args], {
      env: { ...process.env, CUTOVER_CONTROL_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t))
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
    child.once('exit', (code) => done({ code, stdout, stderr }))
  })
}

/**
 * Cutover's model and agent (`--restore-expected` for a restore) beside three fake real resources
 * servers; the fleet file naming them.
 */
async function fleet(
  file: string,
  restoreExpected: boolean,
  misfit: 'counter' | null = null,
): Promise<{ fakes: { [name: string]: FakeResources }; model: string; agent: string }> {
  const extra = restoreExpected ? ['--restore-expected'] : []
  const env = { CUTOVER_CONTROL_TOKEN: TOKEN, CUTOVER_DATA_DIR: dataDir }
  const names = ['blackjack', 'counter', 'workplace'] as const
  const started = await Promise.all(
    names.map((n) => startFakeRealResources(n, TOKEN, { misfit: misfit === n })),
  )
  fakes.push(...started)
  const byName = Object.fromEntries(names.map((n, i) => [n, started[i] as FakeResources]))
  const model = await spawnParticipant(['model', ...extra], env)
  const resources = names.map((n) => `${n}=${byName[n]?.url ?? ''}`).join(',')
  const agent = await spawnParticipant(
    ['agent', '--model', model.url, '--resources', resources, ...extra],
    env,
  )
  processes.push(model, agent)
  writeFileSync(
    file,
    JSON.stringify({
      model: [model.url],
      agent: [agent.url],
      resources: Object.fromEntries(names.map((n) => [n, byName[n]?.url])),
    }),
  )
  return { fakes: byName, model: model.url, agent: agent.url }
}

const checkpoint = (op: string, file: string) =>
  cutover([
    'checkpoint',
    op,
    '--fleet',
    file,
    '--id',
    RECORDED_CHECKPOINT_ID,
    '--dir',
    dataDir,
    '--json',
  ])

interface Report {
  phase: string
  reason?: string
  participants: { participant: string; operation?: string; result?: unknown }[]
}

describe("Cutover's controller drives the real resources participant (as recorded)", () => {
  const originalFile = join(dataDir, 'fleet.json')
  const replacementFile = join(dataDir, 'replacement.json')
  const directory = join(dataDir, RECORDED_CHECKPOINT_ID)

  it('[wire.real-resources] [wire.checkpoint-roots] [wire.snapshot-schema-1] commit publishes the recorded v1 files, cutover verify calls the directory valid, restore takes {sessions, source_checkpoint_id}, resume ends it', async () => {
    const originals = await fleet(originalFile, false)
    const prepare = await checkpoint('prepare', originalFile)
    expect(prepare.stderr).toBe('')
    expect((JSON.parse(prepare.stdout) as Report).phase).toBe('prepared')
    const commit = await checkpoint('commit', originalFile)
    expect(commit.stderr).toBe('')
    const committed = JSON.parse(commit.stdout) as Report
    expect(committed.phase).toBe('committed')
    expect(commit.code).toBe(0)
    // The real participant's own answers, recorded in the report.
    expect(
      committed.participants
        .filter((p) => p.operation === 'resources.commit')
        .map((p) => [p.participant, p.result]),
    ).toEqual([
      [
        'resources_blackjack',
        {
          sessions: 1,
          manifest_digest: '71fd9dbb69dd2e136aca86c675ce87a0d1381abb3ccfa504e935f52be82e557c',
        },
      ],
      [
        'resources_counter',
        {
          sessions: 2,
          manifest_digest: '3e6ca7bc1eef3427df737314f8ecd364e6ef65061c8fbbf119a2852f57e0de5c',
        },
      ],
      [
        'resources_workplace',
        {
          sessions: 1,
          manifest_digest: 'be060a8971706d957357e08ea5d93708aca25fa5d3446ffb4b062d233beddfce',
        },
      ],
    ])
    // Cutover's controller sent the participant an absolute checkpoint_dir (the real one
    // resolves a relative path against its own working directory).
    const commitRequest = originals.fakes['counter']?.requests.find((r) =>
      r.path.endsWith('/commit'),
    )
    expect(commitRequest?.body).toMatchObject({ checkpoint_dir: directory })

    const verify = await cutover(['verify', directory, '--json'])
    expect(verify.code).toBe(0)
    expect(JSON.parse(verify.stdout)).toEqual({ valid: true, problems: [], publisher: 'cutover' })
    const aggregate = JSON.parse(
      readFileSync(join(directory, 'nemo_gym_checkpoint_manifest.json'), 'utf8'),
    ) as AggregateManifest
    expect(aggregate.participants.map((p) => p.participant_id)).toEqual([
      'agent',
      'blackjack',
      'counter',
      'policy',
      'workplace',
    ])
    expect(aggregate.files['resources/counter/r1.a0.json']).toBe(
      'bcc403431f3e4e03c2e5241a9d217bcc14a492e6dfbf7c6136131c2b814e5765',
    )

    // Restore into fresh processes and fresh real participants, then resume.
    const fresh = await fleet(replacementFile, true)
    const restore = await checkpoint('restore', replacementFile)
    expect(restore.stderr).toBe('')
    expect(restore.code).toBe(0)
    const restored = JSON.parse(restore.stdout) as Report
    expect(restored.phase).toBe('restored')
    expect(
      restored.participants.filter((p) => p.operation === 'resources.restore').map((p) => p.result),
    ).toEqual([
      { sessions: 1, source_checkpoint_id: RECORDED_CHECKPOINT_ID },
      { sessions: 2, source_checkpoint_id: RECORDED_CHECKPOINT_ID },
      { sessions: 1, source_checkpoint_id: RECORDED_CHECKPOINT_ID },
    ])
    const resume = await checkpoint('resume', replacementFile)
    expect(resume.code).toBe(0)
    expect((JSON.parse(resume.stdout) as Report).phase).toBe('idle')
    for (const name of ['blackjack', 'counter', 'workplace'])
      expect(fresh.fakes[name]?.requests.map((r) => r.path.split('/').pop())).toEqual([
        'capabilities',
        'restore',
        'capabilities',
        'resume',
      ])
    // The originals, still committed and paused, resume too.
    expect((await checkpoint('resume', originalFile)).code).toBe(0)
  }, 240_000)

  it('[wire.answer-schemas] a restore answer that does not fit is participant_protocol_error naming participant, route and field; the restore aborts and every participant it reached is resumed', async () => {
    const file = join(dataDir, 'misfit.json')
    const fresh = await fleet(file, true, 'counter')
    const restore = await checkpoint('restore', file)
    expect(restore.stderr).toBe('')
    expect(restore.code).toBe(1)
    const report = JSON.parse(restore.stdout) as Report
    expect(report.phase).toBe('aborted')
    expect(report.reason).toBe('participant_protocol_error')
    const refused = report.participants.find(
      (p) => p.operation === 'resources.restore' && p.participant === 'resources_counter',
    ) as { error?: { code: string; message: string } } | undefined
    expect(refused?.error?.code).toBe('participant_protocol_error')
    expect(refused?.error?.message).toMatch(
      /^resources_counter \(http:\/\/127\.0\.0\.1:\d+\) POST \/ng-control\/v1\/resources-checkpoint\/restore: the answer does not fit: sessions: /,
    )
    // Nothing is left half restored: the model, agent and resources it reached are resumed.
    expect(
      report.participants.filter((p) => p.operation?.endsWith('.resume')).length,
    ).toBeGreaterThan(0)
    for (const name of ['blackjack', 'counter'])
      expect(fresh.fakes[name]?.requests.map((r) => r.path.split('/').pop())).toContain('resume')
    const status = await checkpoint('status', file)
    const phases = (JSON.parse(status.stdout) as Report).participants.map(
      (p) => [p.participant, (p.result as { phase: string }).phase] as const,
    )
    expect(phases).toEqual([
      ['policy_model', 'idle'],
      ['resources_blackjack', 'idle'],
      ['resources_counter', 'idle'],
      ['resources_workplace', 'idle'],
      ['agent', 'idle'],
    ])
  }, 240_000)
})
