// The refactor guard: for every scenario at a few seeds, the sha256 of the trace JSON and of the
// committed directory bytes must equal the committed golden fixture. A structure-only change keeps
// it green; a behaviour change shows here first. `UPDATE_GOLDEN=1 npx vitest run <this file>`
// rewrites the fixture (only when a behaviour change is intended and reviewed).
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SCENARIO_NAMES } from '../contracts/scenarios.ts'
import type { ControllerTestOptions } from '../controller/Controller.ts'
import type { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { runScenarioInMemory } from '../testing/runScenarioInMemory.ts'

const FIXTURE = new URL('./fixtures/goldenDigests.json', import.meta.url)

interface Case {
  readonly name: string
  readonly scenario: (typeof SCENARIO_NAMES)[number]
  readonly seed: string
  readonly rollouts?: number
  readonly test?: ControllerTestOptions
}

const cases: Case[] = [
  ...SCENARIO_NAMES.flatMap((scenario) =>
    ['0', '7'].map((seed) => ({ name: `${scenario}@${seed}`, scenario, seed })),
  ),
  { name: 'happy-path@3x12', scenario: 'happy-path', seed: '3', rollouts: 12 },
  {
    name: 'happy-path@1/resumeAgentsFirst',
    scenario: 'happy-path',
    seed: '1',
    test: { resumeAgentsFirst: true },
  },
  {
    name: 'happy-path@1/aggregateBeforeResources',
    scenario: 'happy-path',
    seed: '1',
    test: { aggregateBeforeResources: true },
  },
]

function digestsOf(c: Case): {
  trace: string
  directories: string
  views: string
  events: number
  checkpoints: string
} {
  const { result, dirs } = runScenarioInMemory(
    c.scenario,
    c.seed,
    c.rollouts,
    c.test === undefined ? {} : { test: c.test },
  )
  const trace = createHash('sha256').update(JSON.stringify(result.events)).digest('hex')
  const h = createHash('sha256')
  for (const id of [...dirs.keys()].sort()) {
    const d = dirs.get(id) as MemoryCheckpointDirectory
    h.update(`dir ${id}\n`)
    for (const path of d
      .list()
      .map((e) => e.path)
      .sort()) {
      const bytes = d.readFile(path) ?? new Uint8Array()
      h.update(`file ${path} ${bytes.length}\n`)
      h.update(bytes)
    }
  }
  // The views the inspector shows at every step (participant cards, sessions, invariants, lineage).
  const v = createHash('sha256')
  for (let step = 0; step <= result.events.length; step++) {
    v.update(
      JSON.stringify([
        result.participantsAt(step),
        result.sessionsAt(step),
        result.invariantsAt(step),
      ]),
    )
  }
  v.update(
    JSON.stringify([
      result.lineage(result.events.length),
      result.invariants,
      result.failures,
      result.outcome,
    ]),
  )
  return {
    trace,
    directories: h.digest('hex'),
    views: v.digest('hex'),
    events: result.events.length,
    checkpoints: JSON.stringify(result.checkpoints),
  }
}

describe('golden digests (same seed ⇒ byte-identical trace and directories)', () => {
  const update = process.env['UPDATE_GOLDEN'] === '1'
  const golden: Record<string, ReturnType<typeof digestsOf>> = update
    ? {}
    : (JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, ReturnType<typeof digestsOf>>)
  for (const c of cases) {
    it(`[golden] ${c.name}`, () => {
      const got = digestsOf(c)
      if (update) golden[c.name] = got
      else expect(got).toEqual(golden[c.name])
    })
  }
  if (update)
    it('[golden] writes the fixture', () =>
      writeFileSync(FIXTURE, JSON.stringify(golden, null, 2) + '\n'))
})
