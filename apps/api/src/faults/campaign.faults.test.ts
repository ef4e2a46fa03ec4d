// The fault campaign of issue #29 as the project's own suite (`npm run faults`, part of
// `npm test`): real participant processes and the real `cutover` CLI as the controller, SIGKILLed
// at each commit and restore point (found by polling the directory and the participants), every
// kind of file damaged at rest, and a full tmpfs when this runs as root. It asserts that nothing
// corrupt is ever activated, that verify and restore agree, and that a retried commit repairs the
// directory. Each test is one fault: tried = tests, handled = passed (scripts/faults.mjs counts).
import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { runCheckpointHalf } from '../controller/runCheckpointHalf.ts'
import type { FaultFleet } from './faultFleet.ts'
import {
  FAULT_TOKEN,
  capabilities,
  checkpoint,
  copyCheckpoint,
  filesUnder,
  pollUntil,
  replace,
  restoreGate,
  runRollouts,
  startCli,
  startFleet,
  tempFor,
  verify,
} from './faultFleet.ts'

const BASE = 'ck-base'
/** Long enough for a poll to see each write's temp file and each participant mid-restore. */
const WRITE_PAUSE = { CUTOVER_FAULT_WRITE_PAUSE_MS: '300' }
const READ_PAUSE = { CUTOVER_FAULT_READ_PAUSE_MS: '150' }

const root = mkdtempSync(join(tmpdir(), 'cutover-faults-'))
const asRoot = process.getuid?.() === 0
/** Fleet A's data directory: a small tmpfs when this runs as root (the full-disk faults). */
const aData = join(root, 'a')
let tmpfs = false
let A: FaultFleet
let base: string
const fresh: Record<'rd' | 'r2' | 'r3' | 'r4', FaultFleet> = {} as never
let rollouts: Promise<unknown[]>
const stash = join(root, 'stash', BASE)

const PARTICIPANTS = ['model', 'blackjack', 'counter', 'workplace', 'agent'] as const

/** Every participant of `fleet` still fresh: idle, no checkpoint active (nothing activated). */
async function untouched(fleet: FaultFleet): Promise<void> {
  for (const name of PARTICIPANTS) {
    const caps = await capabilities(fleet.procs[name])
    expect([name, caps.phase, caps.active_checkpoint_id]).toEqual([name, 'idle', null])
  }
}

const kill = (p: { child: { kill(signal: NodeJS.Signals): boolean } }): void =>
  void p.child.kill('SIGKILL')

beforeAll(async () => {
  mkdirSync(aData, { recursive: true })
  if (asRoot) {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', aData])
      tmpfs = true
    } catch {
      tmpfs = false
    }
  }
  A = await startFleet(aData, { env: WRITE_PAUSE })
  // The fresh fleets a checkpoint is restored into start while A takes its checkpoint.
  const starting = Promise.all(
    (['rd', 'r2', 'r3', 'r4'] as const).map(async (name) => {
      const dir = join(root, name)
      mkdirSync(dir, { recursive: true })
      fresh[name] = await startFleet(dir, {
        restoreExpected: true,
        env: name === 'rd' ? {} : READ_PAUSE,
      })
    }),
  )
  // Counter rollouts of four model calls, 6 s each: in flight at prepare however slow the machine,
  // so the checkpoint holds agent boundaries, lineage and resource snapshots.
  rollouts = runRollouts(A, ['r0', 'r1', 'r2'], 6000)
  const prepared = await checkpoint('prepare', A, BASE, ['--deadline-ms', '60000'])
  expect(prepared.report.phase, JSON.stringify(prepared.report)).toBe('prepared')
  const committed = await checkpoint('commit', A, BASE)
  expect(committed.report.phase, JSON.stringify(committed.report)).toBe('committed')
  base = join(aData, BASE)
  expect(verify(base)).toMatchObject({ valid: true, problems: [] })
  expect(filesUnder(join(base, 'resources', 'counter')).length).toBeGreaterThan(1)
  copyCheckpoint(base, stash)
  expect((await checkpoint('resume', A, BASE)).code).toBe(0)
  await starting
  for (const f of Object.values(fresh)) copyCheckpoint(stash, join(f.dataDir, BASE))
}, 600_000)

afterAll(async () => {
  await Promise.all(
    [A, ...Object.values(fresh)].filter((f) => f !== undefined).map((f) => f.stop()),
  )
  if (tmpfs) execFileSync('umount', ['-l', aData])
  rmSync(root, { recursive: true, force: true })
}, 120_000)

/** The files of the base checkpoint by role (the first of each kind). */
function baseFile(pattern: RegExp): string {
  const path = filesUnder(stash).find((p) => pattern.test(p))
  if (path === undefined) throw new Error(`the base checkpoint has no file like ${pattern}`)
  return path
}

const flip = (path: string) => (dir: string) => {
  const bytes = readFileSync(join(dir, path))
  const at = Math.floor(bytes.length / 2)
  bytes[at] = (bytes[at] as number) ^ 0x01
  writeFileSync(join(dir, path), bytes)
}
const remove = (path: string) => (dir: string) => unlinkSync(join(dir, path))

/** Every kind of damage at rest (name → what it does to a copy of the base checkpoint). */
const DAMAGES: readonly (readonly [string, (dir: string) => void])[] = [
  ['a flipped byte in an agent record', (d) => flip(baseFile(/^agent\/(?!manifest)/))(d)],
  ['a flipped byte in agent/manifest.json', (d) => flip('agent/manifest.json')(d)],
  ['a flipped byte in a lineage file', (d) => flip(baseFile(/^model-ledger\/.*\.jsonl$/))(d)],
  ['a flipped byte in the ledger manifest', (d) => flip('model-ledger/policy/manifest.json')(d)],
  ['a flipped byte in a resource snapshot', (d) => flip(baseFile(/^resources\/counter\/r/))(d)],
  ['a flipped byte in a resources manifest', (d) => flip('resources/counter/manifest.json')(d)],
  ['a flipped byte in the aggregate manifest', (d) => flip('nemo_gym_checkpoint_manifest.json')(d)],
  ['a flipped byte in token-store/manifest.json', (d) => flip('token-store/manifest.json')(d)],
  [
    'one digit of the token-store snapshot changed',
    (d) => {
      const path = join(d, 'token-store/manifest.json')
      const text = readFileSync(path, 'utf8')
      const at = text.indexOf('"snapshot"')
      const digit = /[0-9]/.exec(text.slice(at))
      if (digit === null) throw new Error('no digit in the token-store snapshot')
      const i = at + digit.index
      writeFileSync(path, text.slice(0, i) + (text[i] === '9' ? '8' : '9') + text.slice(i + 1))
    },
  ],
  ['a flipped byte in checkpoint.json', (d) => flip('checkpoint.json')(d)],
  ['a missing agent record', (d) => remove(baseFile(/^agent\/(?!manifest)/))(d)],
  ['a missing lineage file', (d) => remove(baseFile(/^model-ledger\/.*\.jsonl$/))(d)],
  ['a missing resource snapshot', (d) => remove(baseFile(/^resources\/counter\/r/))(d)],
  ['a missing token-store manifest', (d) => remove('token-store/manifest.json')(d)],
  ['a missing aggregate manifest', (d) => remove('nemo_gym_checkpoint_manifest.json')(d)],
  ['a missing checkpoint.json', (d) => remove('checkpoint.json')(d)],
  [
    'a resource snapshot truncated to nothing',
    (d) => truncateSync(join(d, baseFile(/^resources\/counter\/r/)), 0),
  ],
  [
    'bytes appended to a resource snapshot',
    (d) => appendFileSync(join(d, baseFile(/^resources\/counter\/r/)), ' '),
  ],
  [
    'an unlisted file in a namespace',
    (d) => writeFileSync(join(d, 'resources/counter/r9.a0.json'), '{}\n'),
  ],
  [
    'a temp file a killed writer left beside the token store',
    (d) => writeFileSync(join(d, 'token-store/.cutover-tmp-manifest.json-4242-1'), '{"half":'),
  ],
  ['an unlisted file at the top', (d) => writeFileSync(join(d, 'notes.txt'), 'hello\n')],
  [
    'a resource snapshot replaced by a symlink to its own bytes',
    (d) => {
      const path = join(d, baseFile(/^resources\/counter\/r/))
      const copy = join(root, `outside-${Date.now()}.json`)
      writeFileSync(copy, readFileSync(path))
      unlinkSync(path)
      symlinkSync(copy, path)
    },
  ],
  [
    'a namespace folder replaced by a symlink to a copy of it',
    (d) => {
      const folder = join(d, 'resources/counter')
      const copy = join(root, `outside-ns-${Date.now()}`)
      copyCheckpoint(folder, copy)
      rmSync(folder, { recursive: true })
      symlinkSync(copy, folder)
    },
  ],
]

describe('damage at rest', () => {
  for (const [name, damage] of DAMAGES) {
    it(`[faults.damage] ${name}: verify and restore both refuse it, and nothing is activated`, async () => {
      const rd = fresh.rd
      const dir = join(rd.dataDir, BASE)
      rmSync(dir, { recursive: true, force: true })
      copyCheckpoint(stash, dir)
      damage(dir)
      const report = verify(dir)
      expect(report.valid).toBe(false)
      expect(restoreGate(dir, BASE).ok).toBe(false)
      // The real restore, into the fresh processes: refused before any participant restores.
      const { procs } = rd
      const outcome = await runCheckpointHalf(
        'restore',
        {
          model: procs.model.url,
          agent: procs.agent.url,
          resources: {
            blackjack: procs.blackjack.url,
            counter: procs.counter.url,
            workplace: procs.workplace.url,
          },
        },
        FAULT_TOKEN,
        BASE,
        rd.dataDir,
        () => undefined,
      )
      expect(outcome.kind === 'done' && outcome.ok).toBe(false)
      await untouched(rd)
    })
  }

  it('[faults.damage] the whole checkpoint path is a symlink: restore --json prints one object refusing it with checkpoint_dir_invalid; nothing is activated', async () => {
    const rd = fresh.rd
    const real = join(root, 'linked-base')
    rmSync(real, { recursive: true, force: true })
    copyCheckpoint(stash, real)
    const link = join(rd.dataDir, 'ck-link')
    rmSync(link, { force: true })
    symlinkSync(real, link)
    expect(() => verify(link)).toThrow(/symlink/)
    const r = await checkpoint('restore', rd, 'ck-link')
    expect(r.code).toBe(1)
    expect(r.report.reason).toMatch(/^checkpoint_dir_invalid: /)
    await untouched(rd)
  })

  it('[faults.restore-kill] the controller SIGKILLed while it verifies the checkpoint: nothing is activated, and a retried restore restores every participant', async () => {
    const rd = fresh.rd
    const dir = join(rd.dataDir, BASE)
    rmSync(dir, { recursive: true, force: true })
    copyCheckpoint(stash, dir)
    // A slow disk under the controller alone: its verification runs long enough to be killed in.
    const run = startCli(
      ['checkpoint', 'restore', '--fleet', rd.file, '--id', BASE, '--dir', rd.dataDir, '--json'],
      { CUTOVER_FAULT_READ_PAUSE_MS: '400' },
    )
    // Past its start and discovery, well inside its ~10 s of reading (no participant is asked yet).
    await new Promise((resolve) => setTimeout(resolve, 5000))
    kill(run)
    const killed = await run.done
    expect(killed.signal).toBe('SIGKILL')
    await untouched(rd)
    expect(verify(dir).valid).toBe(true)
    const retried = await checkpoint('restore', rd, BASE)
    expect(retried.report.phase, JSON.stringify(retried.report)).toBe('restored')
    for (const name of PARTICIPANTS)
      expect((await capabilities(rd.procs[name])).phase).toBe('restored_paused')
  })
})

describe('SIGKILL during restore', () => {
  it('[faults.restore-kill] the controller SIGKILLed after the model restored: a retried restore (the model replaying its restore of this checkpoint) restores the whole fleet', async () => {
    const f = fresh.r2
    const run = startCli([
      'checkpoint',
      'restore',
      '--fleet',
      f.file,
      '--id',
      BASE,
      '--dir',
      f.dataDir,
      '--json',
    ])
    await pollUntil('the model restored', async () =>
      (await capabilities(f.procs.model)).phase === 'restored_paused' ? true : undefined,
    )
    kill(run)
    expect((await run.done).signal).toBe('SIGKILL')
    const retried = await checkpoint('restore', f, BASE)
    expect(retried.report.phase, JSON.stringify(retried.report)).toBe('restored')
    for (const name of PARTICIPANTS)
      expect((await capabilities(f.procs[name])).phase).toBe('restored_paused')
  })

  /** A restore with `victim` SIGKILLed once `after` has restored, then retried with a fresh one. */
  async function killDuringRestore(
    f: FaultFleet,
    after: ParticipantProcess,
    victim: 'agent' | 'counter',
  ): Promise<{ first: string; second: string }> {
    const run = startCli([
      'checkpoint',
      'restore',
      '--fleet',
      f.file,
      '--id',
      BASE,
      '--dir',
      f.dataDir,
      '--json',
    ])
    await pollUntil('the participant before the victim restored', async () =>
      (await capabilities(after)).phase === 'restored_paused' ? true : undefined,
    )
    kill(f.procs[victim])
    const first = await run.done
    expect(first.code).toBe(1)
    const firstReport = JSON.parse(first.stdout) as { phase: string; reason: string }
    expect(firstReport.phase).toBe('aborted')
    await replace(f, victim, { restoreExpected: true })
    const second = await checkpoint('restore', f, BASE)
    expect(second.code).toBe(1)
    expect(second.report.phase).toBe('aborted')
    // The replacement was never restored: nothing was called restored that is not.
    expect((await capabilities(f.procs[victim])).phase).toBe('idle')
    return { first: firstReport.reason, second: second.report.reason ?? '' }
  }

  it('[faults.restore-kill] the agent SIGKILLed after the model restored: the retried restore with a fresh agent fails with participant_already_live naming the live model, never restored', async () => {
    const f = fresh.r3
    const { second } = await killDuringRestore(f, f.procs.model, 'agent')
    expect(second).toMatch(/^participant_already_live: policy_model already restored/)
    for (const name of ['blackjack', 'counter', 'workplace'] as const)
      expect((await capabilities(f.procs[name])).phase).toBe('idle')
  })

  it('[faults.restore-kill] the counter SIGKILLed after the agent and blackjack restored: the retried restore fails with participant_already_live naming each live participant', async () => {
    const f = fresh.r4
    const { second } = await killDuringRestore(f, f.procs.blackjack, 'counter')
    expect(second).toMatch(
      /^participant_already_live: policy_model, resources_blackjack, agent already restored/,
    )
    expect((await capabilities(f.procs.workplace)).phase).toBe('idle')
  })
})

/** Where a commit writes, and who: the participants' namespaces, then the controller's files. */
const COMMIT_POINTS = [
  ['agent/manifest.json', 'agent'],
  ['model-ledger/policy/manifest.json', 'policy model'],
  ['resources/blackjack/manifest.json', 'blackjack'],
  ['resources/counter/manifest.json', 'counter'],
  ['resources/workplace/manifest.json', 'workplace'],
  ['nemo_gym_checkpoint_manifest.json', 'controller'],
  ['token-store/manifest.json', 'controller'],
  ['checkpoint.json', 'controller'],
] as const

describe('SIGKILL the controller at each commit point', () => {
  beforeAll(async () => {
    // The base checkpoint's rollouts run on to their end (each result acknowledged) first.
    await rollouts
  }, 120_000)

  for (const [i, [point, writer]] of COMMIT_POINTS.entries()) {
    it(`[faults.commit-kill] killed while the ${writer} writes ${point}: torn, refused by verify and restore alike; a retried commit repairs the directory`, async () => {
      const id = `ck-kill-${i}`
      const prepared = await checkpoint('prepare', A, id)
      expect(prepared.report.phase, JSON.stringify(prepared.report)).toBe('prepared')
      const dir = join(A.dataDir, id)
      const run = startCli(
        ['checkpoint', 'commit', '--fleet', A.file, '--id', id, '--dir', A.dataDir, '--json'],
        writer === 'controller' ? WRITE_PAUSE : {},
      )
      await pollUntil(`a temp file of ${point}`, () => tempFor(dir, point))
      kill(run)
      expect((await run.done).signal).toBe('SIGKILL')
      const torn = verify(dir)
      expect(torn.valid).toBe(false)
      expect(restoreGate(dir, id).ok).toBe(torn.valid)
      const retried = await checkpoint('commit', A, id)
      expect(retried.report.phase, JSON.stringify(retried.report)).toBe('committed')
      expect(filesUnder(dir).filter((p) => p.includes('.cutover-tmp-'))).toEqual([])
      expect(verify(dir)).toMatchObject({ valid: true, problems: [] })
      expect(restoreGate(dir, id)).toEqual({ ok: true, why: '' })
      expect((await checkpoint('resume', A, id)).code).toBe(0)
    })
  }
})

describe('a full disk', () => {
  const PAGE = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096
  /** Fills the tmpfs, then frees `pages` pages of it. */
  function fill(pages: number): string {
    const filler = join(A.dataDir, 'filler')
    const chunk = Buffer.alloc(64 * 1024, 1)
    for (;;) {
      try {
        appendFileSync(filler, chunk)
      } catch {
        break
      }
    }
    for (const size of [PAGE, 512, 1]) {
      for (;;) {
        try {
          appendFileSync(filler, chunk.subarray(0, size))
        } catch {
          break
        }
      }
    }
    truncateSync(filler, Math.max(0, statSync(filler).size - pages * PAGE))
    return filler
  }

  // With k pages free, the first k one-page manifests fit (tmpfs counts data pages): the writer
  // refused is the next one in commit order, the controller's aggregate after the five namespaces.
  for (const [pages, writer] of [
    [0, 'agent'],
    [1, 'policy_model'],
    [2, 'resources_blackjack'],
    [4, 'resources_workplace'],
    [5, 'the controller'],
  ] as const) {
    it(`[faults.storage-full] a commit on a full disk (${pages} pages free) is storage_full on every attempt of ${writer}; nothing is left half-written`, async (ctx) => {
      if (!tmpfs) {
        ctx.skip(
          'the full-disk faults mount a small tmpfs: they run as root only (this run is not root)',
        )
        return
      }
      const id = `ck-full-${pages}`
      expect((await checkpoint('prepare', A, id)).report.phase).toBe('prepared')
      const filler = fill(pages)
      try {
        const r = await checkpoint('commit', A, id)
        expect(r.code).toBe(1)
        expect(r.report.reason).toBe('commit failed: storage_full')
        // Every refusal on the way (each participant's, on each of the controller's attempts)
        // names the full disk; the controller's own writes end in the same reason.
        const codes = r.report.participants.flatMap((p) => (p.error ? [p.error.code] : []))
        for (const code of codes) expect(code).toBe('storage_full')
        const refused = [
          ...new Set(r.report.participants.filter((p) => p.error).map((p) => p.participant)),
        ]
        // The controller retries its commit: the same writer is refused, as storage_full, on each
        // of its three attempts.
        expect(refused).toEqual(writer === 'the controller' ? [] : [writer])
        if (writer !== 'the controller') expect(codes).toHaveLength(3)
      } finally {
        unlinkSync(filler)
      }
      const dir = join(A.dataDir, id)
      expect(filesUnder(dir).filter((p) => p.includes('.cutover-tmp-'))).toEqual([])
      expect(verify(dir).valid).toBe(false)
      expect(restoreGate(dir, id).ok).toBe(false)
    })
  }

  it('[faults.storage-full] once there is room again, a checkpoint commits and verifies', async (ctx) => {
    if (!tmpfs) {
      ctx.skip('the full-disk faults run as root only (this run is not root)')
      return
    }
    const id = 'ck-room'
    expect((await checkpoint('prepare', A, id)).report.phase).toBe('prepared')
    expect((await checkpoint('commit', A, id)).report.phase).toBe('committed')
    expect(verify(join(A.dataDir, id))).toMatchObject({ valid: true, problems: [] })
    expect((await checkpoint('resume', A, id)).code).toBe(0)
  })
})

describe('SIGKILL a participant during commit', () => {
  it('[faults.commit-kill] the counter SIGKILLed while it writes its namespace: the commit fails, the torn directory is refused by verify and restore alike', async () => {
    const id = 'ck-participant-kill'
    expect((await checkpoint('prepare', A, id)).report.phase).toBe('prepared')
    const dir = join(A.dataDir, id)
    const run = startCli([
      'checkpoint',
      'commit',
      '--fleet',
      A.file,
      '--id',
      id,
      '--dir',
      A.dataDir,
      '--json',
    ])
    await pollUntil('the counter writing', () => tempFor(dir, 'resources/counter/manifest.json'))
    kill(A.procs.counter)
    const done = await run.done
    expect(done.code).toBe(1)
    const report = JSON.parse(done.stdout) as { phase: string }
    expect(report.phase).toBe('aborted')
    const torn = verify(dir)
    expect(torn.valid).toBe(false)
    expect(restoreGate(dir, id).ok).toBe(false)
    expect(existsIn(dir, 'checkpoint.json')).toBe(false)
  })
})

const existsIn = (dir: string, path: string): boolean => filesUnder(dir).includes(path)
