import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'
import { runBenchCommand } from './benchCommand.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const workplace = loadNodeWorkplaceData()

async function run(argv: string[]) {
  const tempRoot = mkdtempSync(join(tmpdir(), 'cutover-bench-test-'))
  roots.push(tempRoot)
  let stdout = ''
  let stderr = ''
  // Small effort: the shapes and signs of the figures are under test, never their speed.
  const code = await runBenchCommand(
    argv,
    { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    {
      loadWorkplace: () => workplace,
      measure: { minMeasureMs: 20, sha256Bytes: 1 << 20, tempRoot },
    },
  )
  return { code, stdout, stderr, tempRoot }
}

const FIXED = [
  'rollouts',
  'cycle_ms',
  'events_per_s',
  'workplace_sessions_per_s',
  'workplace_snapshot_bytes_median',
  'workplace_full_bytes_median',
  'sha256_mb_per_s',
] as const

describe('cutover bench', () => {
  it('[bench] --json prints exactly one object with every contract figure a positive number, and cleans up its temp folder', async () => {
    const r = await run(['--rollouts', '6', '--json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    const figures = JSON.parse(r.stdout) as Record<string, unknown>
    expect(figures['rollouts']).toBe(6)
    for (const name of [
      ...FIXED,
      'max_step_ms',
      'peak_rss_mb',
      'cycle_ms_generation_safe',
      'heap_limit_mb',
      'heap_used_max_mb',
      'fs_floor_ms',
      'cycle_over_floor',
      'fs_floor_files',
    ]) {
      expect(typeof figures[name], name).toBe('number')
      expect(figures[name] as number, name).toBeGreaterThan(0)
    }
    expect(figures['workplace_snapshot_bytes_median'] as number).toBeLessThan(
      figures['workplace_full_bytes_median'] as number,
    )
    expect(figures['workplace_snapshot_bytes']).toHaveLength(5)
    expect(figures['cycle_directories_valid']).toBe(true)
    expect(figures['cycle_run_invariants_pass']).toBe(true)
    expect(figures['cycle_files_written'] as number).toBeGreaterThan(0)
    // The floor wrote the checkpoint's own files (same paths and sizes), once after each run.
    expect(figures['fs_floor_matches_checkpoint']).toBe(true)
    expect(figures['fs_floor_ms_runs']).toHaveLength(3)
    expect(Array.isArray(figures['notes'])).toBe(true)
    expect(readdirSync(r.tempRoot)).toEqual([])
  })

  it('[bench] the human table shows each figure beside its target (docs/performance.md)', async () => {
    const r = await run(['--rollouts', '3'])
    expect(r.code).toBe(0)
    for (const name of FIXED.slice(1)) expect(r.stdout).toContain(`(${name})`)
    expect(r.stdout).toContain('(fs_floor_ms)')
    expect(r.stdout).toContain('(cycle_over_floor)')
    for (const target of [
      '≤ 1.5×',
      '≤ 500 ms',
      '≤ 20 ms',
      '≥ 100,000 events/s',
      '≥ 1,500 sessions/s',
      '≤ 2 KB',
      '362 KB',
    ])
      expect(r.stdout).toContain(target)
  })

  it('[cli] --help exits 0; bad options are usage errors (one stderr line, exit 2)', async () => {
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('usage: cutover bench [--rollouts N] [--json]')
    for (const argv of [['--rollouts', '0'], ['--rollouts', 'many'], ['--fast'], ['--rollouts']]) {
      const r = await run(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toMatch(/^cutover bench: /)
    }
  })
})

describe('cutover bench --api', () => {
  it('[bench] --api --json prints the server figures of a streamed run (shapes only, never speed)', async () => {
    const tempRoot = mkdtempSync(join(tmpdir(), 'cutover-bench-test-'))
    roots.push(tempRoot)
    let stdout = ''
    const code = await runBenchCommand(
      ['--api', '--rollouts', '6', '--json'],
      { stdout: (s) => (stdout += s), stderr: () => undefined },
      { measure: { tempRoot } },
    )
    expect(code).toBe(0)
    const figures = JSON.parse(stdout) as Record<string, unknown>
    for (const name of [
      'event_loop_max_stall_ms',
      'view_ms_p95',
      'view_requests',
      'summary_ms_p95',
      'events_range_ms_p95',
      'api_run_ms',
      'run_to_end_ms',
    ])
      expect(typeof figures[name], name).toBe('number')
    expect(figures['run_to_end_ms'] as number).toBeGreaterThan(0)
    expect(Object.keys(figures['view_ms_p95_by_kind'] as object).sort()).toEqual([
      'session',
      'sessions',
      'step',
      'tables',
    ])
    expect(readdirSync(tempRoot)).toEqual([])
  })
})
