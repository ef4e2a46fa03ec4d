import { afterAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type {
  CheckpointView,
  LineageView,
  RunView,
  SessionDetailView,
  TraceEvent,
} from '@cutover/core/contracts'
import { SCENARIO_NAMES, simulateCommandLine } from '@cutover/core/contracts'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'
import { apiHarness, tempDataDir } from './testing/apiHarness.ts'
import { simulateCli } from './testing/simulateCli.ts'

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const workplace = loadNodeWorkplaceData()
const root = mkdtempSync(join(tmpdir(), 'cutover-cutmode-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const simulate = (argv: readonly string[]) => simulateCli(root, workplace, argv)

describe('cut_mode (docs/protocol.md §11) over the API and the CLI', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(cleanup)

  it('[api] POST /api/runs refuses an unknown cut_mode and a cut fault in whole-request mode with a 400 naming the field, creating nothing', async () => {
    const bad = await api.json('/api/runs', post({ scenario: 'happy-path', cut_mode: 'sliced' }))
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(bad.body.error.message).toContain('cut_mode')
    const wrongMode = await api.json(
      '/api/runs',
      post({ scenario: 'happy-path', faults: [{ kind: 'duplicate_cut_claim', rollout: 0 }] }),
    )
    expect(wrongMode).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(wrongMode.body.error.message).toContain('cut_mode')
    const noRollout = await api.json(
      '/api/runs',
      post({
        scenario: 'generation-safe-cut',
        faults: [{ kind: 'cut_stage_failure', rollout: 'r42' }],
      }),
    )
    expect(noRollout).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect((await api.json('/api/runs')).body).toEqual({ runs: [] })
  })

  it('[api] GET /api/scenarios lists the six generation-safe scenarios with their cut_mode', async () => {
    const { body } = await api.json('/api/scenarios')
    const names = body.scenarios.map((s: { name: string }) => s.name)
    expect(names).toEqual([...SCENARIO_NAMES])
    for (const name of [
      'generation-safe-cut',
      'completed-before-egress',
      'constrained-decoding-excluded',
      'cut-stage-failure',
      'corrupt-prefix-segment',
      'cut-restore-race',
    ])
      expect(body.scenarios.find((s: { name: string }) => s.name === name).config.cut_mode).toBe(
        'generation-safe',
      )
  })

  it('[api] a generation-safe run carries cut_mode in its view, and its copied command line reproduces it byte for byte', async () => {
    const created = await api.createRun({
      scenario: 'happy-path',
      seed: 5,
      cut_mode: 'generation-safe',
      faults: [{ kind: 'straggler', rollout: 'r2', extra_ms: 300 }],
    })
    const view: RunView = await api.waitComplete(created.id)
    expect(view).toMatchObject({ cut_mode: 'generation-safe', status: 'complete' })
    expect(Object.values(view.invariants).every((v) => v === 'pass')).toBe(true)
    const line = simulateCommandLine(view)
    expect(line).toContain('--cut-mode generation-safe')
    const words = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '')
    expect(words.slice(0, 3)).toEqual(['npx', 'cutover', 'simulate'])
    const cli = simulate([...words.slice(3), '--json'])
    expect(cli.stderr).toBe('')
    const events = (await api.json(`/api/runs/${view.id}/events`)).body.events as TraceEvent[]
    expect(JSON.stringify(cli.result?.events)).toBe(JSON.stringify(events))
    expect(events.some((e) => e.type === 'generation.cut')).toBe(true)
    // A whole-request run says nothing of cut_mode.
    expect(simulateCommandLine({ ...view, cut_mode: undefined } as RunView)).not.toContain(
      '--cut-mode',
    )
  })

  it("[api] the views of a generation-safe-cut run show the cut: lineage records, the call's prefix and continuation, the segments with digest status", async () => {
    const created = await api.createRun({ scenario: 'generation-safe-cut', seed: 0 })
    const view: RunView = await api.waitComplete(created.id)
    const events = (await api.json(`/api/runs/${view.id}/events`)).body.events as TraceEvent[]
    const lineage = (await api.json(`/api/runs/${view.id}/lineage`)).body as LineageView
    const r0 = lineage.rollouts.find((r) => r.rollout_id === 'r0')
    const cutCall = r0?.attempts[0]?.calls[0]
    expect(cutCall?.generation_cut).toMatchObject({
      disposition: 'durable_prefix',
      cut_kind: 'active_prefix',
    })
    expect(r0?.attempts[1]?.calls[0]?.continues_cut).toMatchObject({
      model_call_id: cutCall?.model_call_id,
      prefix_token_count: cutCall?.generation_cut?.prefix_token_count,
      prefix_delivery: 'staged',
    })
    const detail = (await api.json(`/api/runs/${view.id}/sessions/r0.a1?step=${view.events}`))
      .body as SessionDetailView
    const cut = detail.generation_cuts?.[0]
    expect(cut).toMatchObject({
      model_call_id: cutCall?.model_call_id,
      continued_by: r0?.attempts[1]?.calls[0]?.model_call_id,
    })
    expect((cut?.prefix_token_count ?? 0) + (cut?.continuation_token_count ?? 0)).toBe(
      cut?.total_token_count,
    )
    expect(cut?.continuation_digest).toMatch(/^[0-9a-f]{64}$/)
    // the steps of the cut itself and of the continuation, not of the acknowledgement
    expect(cut?.cut_step).toBe(
      events.find(
        (e) => e.type === 'generation.cut' && e.payload['model_call_id'] === cut?.model_call_id,
      )?.step,
    )
    expect(cut?.continue_step).toBe(
      events.find(
        (e) =>
          e.type === 'generation.continue' && e.payload['cut_model_call_id'] === cut?.model_call_id,
      )?.step,
    )
    const checkpoints = (await api.json(`/api/runs/${view.id}/checkpoints`)).body
      .checkpoints as CheckpointView[]
    expect(checkpoints[0]?.segments).toEqual([
      expect.objectContaining({
        path: `token-store/segments/${cutCall?.model_call_id}.seg-0.json`,
        status: 'ok',
        token_count: cut?.prefix_token_count,
      }),
    ])
  })

  it('[cli] --cut-mode generation-safe cuts the straggler; a bad value or a cut fault without it exits 2 with one line', () => {
    const ok = simulate([
      '--scenario',
      'straggler-retirement',
      '--seed',
      '2',
      '--cut-mode',
      'generation-safe',
      '--json',
    ])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ cut_mode: 'generation-safe' })
    expect(ok.result?.events.some((e) => e.type === 'generation.continue')).toBe(true)
    for (const bad of [
      ['--scenario', 'happy-path', '--cut-mode', 'sliced'],
      ['--scenario', 'happy-path', '--faults', '[{"kind":"corrupt_segment","index":0}]'],
      ['--scenario', 'cut-stage-failure', '--cut-mode', 'whole-request'],
    ]) {
      const r = simulate(['--seed', '1', ...bad])
      expect([bad, r.code]).toEqual([bad, 2])
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toMatch(/cut.mode/)
    }
  })
})
