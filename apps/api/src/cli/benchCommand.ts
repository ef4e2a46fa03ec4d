import type { WorkplaceData } from '@cutover/core'
import { MAX_ROLLOUTS } from '@cutover/core/contracts'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import type { BenchFigures, BenchOptions } from './measureBench.ts'
import { measureBench } from './measureBench.ts'
import type { ApiBenchFigures } from './measureApiBench.ts'
import { measureApiBench } from './measureApiBench.ts'
import type { RecordBenchFigures } from './measureRecordBench.ts'
import { measureRecordBench } from './measureRecordBench.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'

export const BENCH_HELP = `usage: cutover bench [--rollouts N] [--json] [--api | --record]

Measures the performance figures of docs/performance.md on this machine and prints each beside its
target (reported, never asserted). Runs two happy-path simulations of N rollouts mixed across
blackjack, counter and workplace (one on the real file system in a temp folder that is removed
afterwards, one in memory), the generation-safe-cut scenario of N rollouts on the real file system
(cycle_ms_generation_safe: the same cycle with the straggler cut and continued), the Workplace
codec over the example tasks, and SHA-256 over 64 MiB. After each simulation it measures the floor of the happy-path checkpoint (fs_floor_ms, the median
of three): the same files with the same sizes, written with the same durability steps (temp file,
syncfs or fdatasync, rename, folder fsync) and nothing else; cycle_over_floor = cycle_ms /
fs_floor_ms.
At 1,000 rollouts this takes a minute or two.

Options:
  --rollouts N   rollouts of each simulated run (1 to ${MAX_ROLLOUTS}; default 1000)
  --api          measure the server instead: start the API on a loopback port, stream a run of N
                 rollouts, and time the step, session and tables views of the running run over
                 HTTP (event_loop_max_stall_ms, view_ms_p95); then time a second run of N
                 rollouts from POST /api/runs to complete (run_to_end_ms)
  --record       measure a recording proxy instead: cutover model reached directly and through
                 cutover record, /v1/responses back to back (record_added_latency_ms_median) and
                 from 16 clients (record_responses_per_s_direct / _proxy)
  --json         print exactly one JSON object: { "rollouts", "cycle_ms", "fs_floor_ms",
                 "cycle_over_floor", "cycle_ms_generation_safe", "events_per_s",
                 "max_step_ms", "peak_rss_mb", "workplace_sessions_per_s",
                 "workplace_snapshot_bytes_median", "workplace_full_bytes_median", "sha256_mb_per_s", ... , "notes": [...] }
  --help         show this help

Exit status: 0 measured; 1 a measured run failed an invariant or wrote an invalid directory;
2 usage error (one line on stderr).`

/**
 * One row of the human table: a figure, how to show it, its target (docs/performance.md) and
 * whether it is met.
 */
interface Row {
  readonly label: string
  readonly value: string
  readonly target: string
  readonly met: boolean | null
}

const num = (x: number): string => x.toLocaleString('en-US')

function rows(f: BenchFigures): Row[] {
  return [
    {
      label: `full cycle, ${num(f.rollouts)} rollouts (cycle_ms)`,
      value: f.cycle_ms === null ? 'no checkpoint' : `${num(f.cycle_ms)} ms`,
      target: f.rollouts >= 10_000 ? '≤ 5,000 ms' : '≤ 500 ms',
      met: f.cycle_ms === null ? null : f.cycle_ms <= (f.rollouts >= 10_000 ? 5000 : 500),
    },
    {
      label: `file-system floor of that checkpoint (fs_floor_ms)`,
      value: f.fs_floor_ms === null ? 'no checkpoint' : `${num(f.fs_floor_ms)} ms`,
      target: '— (same files, sizes, durability steps)',
      met: null,
    },
    {
      label: 'full cycle over its floor (cycle_over_floor)',
      value: f.cycle_over_floor === null ? 'no checkpoint' : `${f.cycle_over_floor}×`,
      target: '≤ 1.5×',
      met: f.cycle_over_floor === null ? null : f.cycle_over_floor <= 1.5,
    },
    {
      label: `full cycle, generation-safe, ${num(f.rollouts)} rollouts (cycle_ms_generation_safe)`,
      value:
        f.cycle_ms_generation_safe === null
          ? 'no checkpoint'
          : `${num(f.cycle_ms_generation_safe)} ms`,
      target: '— (beside cycle_ms)',
      met: null,
    },
    {
      label: 'simulator throughput (events_per_s)',
      value: `${num(f.events_per_s)} events/s`,
      target: '≥ 100,000 events/s',
      met: f.events_per_s >= 100_000,
    },
    {
      label: 'longest simulator step (max_step_ms)',
      value: `${num(f.max_step_ms)} ms`,
      target: '≤ 20 ms',
      met: f.max_step_ms <= 20,
    },
    {
      label: 'peak memory (peak_rss_mb)',
      value: `${num(f.peak_rss_mb)} MB`,
      target: f.rollouts >= 10_000 ? '≤ 1,024 MB' : '—',
      met: f.rollouts >= 10_000 ? f.peak_rss_mb <= 1024 : null,
    },
    {
      label: 'Workplace export + restore (workplace_sessions_per_s)',
      value: `${num(f.workplace_sessions_per_s)} sessions/s`,
      target: '≥ 1,500 sessions/s',
      met: f.workplace_sessions_per_s >= 1500,
    },
    {
      label: 'Workplace snapshot median (workplace_snapshot_bytes_median)',
      value: `${num(f.workplace_snapshot_bytes_median)} B`,
      target: '≤ 2 KB (2,048 B)',
      met: f.workplace_snapshot_bytes_median <= 2048,
    },
    {
      label: 'Workplace full-table median (workplace_full_bytes_median)',
      value: `${num(f.workplace_full_bytes_median)} B`,
      target: 'reference split-JSON ≈ 362 KB',
      met: null,
    },
    {
      label: 'SHA-256 (sha256_mb_per_s)',
      value: `${num(f.sha256_mb_per_s)} MiB/s`,
      target: '—',
      met: null,
    },
  ]
}

function humanTable(f: BenchFigures): string {
  const table = rows(f)
  const w0 = Math.max(...table.map((r) => r.label.length), 'figure'.length)
  const w1 = Math.max(...table.map((r) => r.value.length), 'measured'.length)
  const w2 = Math.max(...table.map((r) => r.target.length), 'target (docs/performance.md)'.length)
  const line = (a: string, b: string, c: string, d: string) =>
    `${a.padEnd(w0)}  ${b.padStart(w1)}  ${c.padEnd(w2)}  ${d}`
  const phases = Object.entries(f.cycle_phases_ms)
    .map(([k, v]) => `${k} ${num(v)}`)
    .join(', ')
  return [
    `cutover bench — ${f.scenario}, seed ${f.seed}, ${num(f.rollouts)} rollouts`,
    '',
    line('figure', 'measured', 'target (docs/performance.md)', 'met'),
    line('-'.repeat(w0), '-'.repeat(w1), '-'.repeat(w2), '---'),
    ...table.map((r) =>
      line(r.label, r.value, r.target, r.met === null ? '' : r.met ? 'yes' : 'NO'),
    ),
    '',
    `cycle: window ${f.cycle_window_ms === null ? '-' : num(f.cycle_window_ms)} ms (${phases}) + verify ${num(f.cycle_verify_ms)} ms; ${num(f.cycle_files_written)} files, ${num(f.cycle_bytes_written)} B written; whole real-FS run ${num(f.cycle_run_ms)} ms; directories valid: ${f.cycle_directories_valid ? 'yes' : 'NO'}; invariants pass: ${f.cycle_run_invariants_pass ? 'yes' : 'NO'}`,
    `floor: ${num(f.fs_floor_files)} files, ${num(f.fs_floor_bytes)} B, runs ${f.fs_floor_ms_runs.map(num).join(' / ')} ms (median taken); same files and sizes as the checkpoint: ${f.fs_floor_matches_checkpoint ? 'yes' : 'NO'}`,
    `simulator: ${num(f.events)} events in ${num(f.simulate_ms)} ms (trace generation alone ${num(f.trace_events_per_s)} events/s); longest step ${num(f.max_step_ms)} ms at ${f.max_step_event}`,
    `Workplace: delta bytes per task ${f.workplace_snapshot_bytes.map(num).join(', ')}; full bytes per task ${f.workplace_full_bytes.map(num).join(', ')}; full-form round trip ${num(f.workplace_full_sessions_per_s)} sessions/s`,
    '',
    'Notes:',
    ...f.notes.map((n) => `- ${n}`),
  ].join('\n')
}

/** Seams for tests: the Workplace loader and the measurement effort. */
export interface BenchCommandOptions {
  readonly loadWorkplace?: () => WorkplaceData
  readonly measure?: Partial<Pick<BenchOptions, 'minMeasureMs' | 'sha256Bytes' | 'tempRoot'>>
}

function apiTable(f: ApiBenchFigures): string {
  return [
    `cutover bench --api — happy-path, ${num(f.api_rollouts)} rollouts streaming`,
    '',
    `event_loop_max_stall_ms  ${num(f.event_loop_max_stall_ms)} ms  (target ≤ 50 ms) ${f.event_loop_max_stall_ms <= 50 ? 'yes' : 'NO'}`,
    `view_ms_p95              ${num(f.view_ms_p95)} ms  (target ≤ 50 ms) ${f.view_ms_p95 <= 50 ? 'yes' : 'NO'}`,
    `run_to_end_ms            ${num(f.run_to_end_ms)} ms  (target ≤ 3,000 ms) ${f.run_to_end_ms <= 3000 ? 'yes' : 'NO'}`,
    `views: ${num(f.view_requests)} requests, max ${num(f.view_ms_max)} ms; summary p95 ${num(f.summary_ms_p95)} ms; events range p95 ${num(f.events_range_ms_p95)} ms; /api/health p95 ${num(f.health_ms_p95)} ms; run ${num(f.api_run_ms)} ms`,
    '',
    'Notes:',
    ...f.api_notes.map((n) => `- ${n}`),
  ].join('\n')
}

function recordTable(f: RecordBenchFigures): string {
  return [
    'cutover bench --record — /v1/responses through a recording proxy vs direct',
    '',
    `latency, median of ${num(f.record_calls)} calls: direct ${f.record_latency_direct_ms_median} ms, through the proxy ${f.record_latency_proxy_ms_median} ms`,
    `added latency per exchange (record_added_latency_ms_median): ${f.record_added_latency_ms_median} ms (p95 ${f.record_added_latency_ms_p95} ms)`,
    `throughput, ${f.record_concurrency} clients: direct ${num(f.record_responses_per_s_direct)}/s, through the proxy ${num(f.record_responses_per_s_proxy)}/s (ratio ${f.record_throughput_ratio})`,
    `recording: ${num(f.record_exchanges_recorded)} lines for ${num(f.record_proxy_requests)} calls through the proxy`,
    '',
    'Notes:',
    ...f.record_notes.map((n) => `- ${n}`),
  ].join('\n')
}

/**
 * `cutover bench [--rollouts N] [--json] [--api | --record]` (docs/cli.md, docs/performance.md).
 * `argv` holds the arguments after `bench`.
 */
export function runBenchCommand(
  argv: readonly string[],
  io: CliIo,
  options: BenchCommandOptions = {},
): number | Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout(`${BENCH_HELP}\n`)
    return EXIT.ok
  }
  let rollouts = 1000
  let json: boolean
  let api: boolean
  let record: boolean
  try {
    const { values, switches } = parseArgs(argv, {
      values: ['--rollouts'],
      switches: ['--json', '--api', '--record'],
    })
    const text = values.get('--rollouts')
    if (text !== undefined) rollouts = parseIntegerOption('--rollouts', text, 1, MAX_ROLLOUTS)
    json = switches.has('--json')
    api = switches.has('--api')
    record = switches.has('--record')
    if (api && record) throw new UsageError('--api and --record measure different things: pick one')
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`cutover bench: ${error.message}\n`)
    return EXIT.usage
  }
  if (record)
    return measureRecordBench(json ? {} : { progress: (line) => io.stderr(`${line}\n`) }).then(
      (f) => {
        io.stdout(json ? `${JSON.stringify(f)}\n` : `${recordTable(f)}\n`)
        return f.record_exchanges_recorded === f.record_proxy_requests ? EXIT.ok : EXIT.failure
      },
    )
  if (api) {
    return measureApiBench({
      rollouts,
      ...(options.measure?.tempRoot === undefined ? {} : { tempRoot: options.measure.tempRoot }),
      ...(json ? {} : { progress: (line: string) => io.stderr(`${line}\n`) }),
    }).then((f) => {
      io.stdout(json ? `${JSON.stringify(f)}\n` : `${apiTable(f)}\n`)
      return EXIT.ok
    })
  }
  return measureBench({
    rollouts,
    workplace: (options.loadWorkplace ?? loadNodeWorkplaceData)(),
    ...options.measure,
    // With --json stdout holds one object only; progress goes to stderr for people.
    ...(json ? {} : { progress: (line: string) => io.stderr(`${line}\n`) }),
  }).then((figures) => {
    io.stdout(json ? `${JSON.stringify(figures)}\n` : `${humanTable(figures)}\n`)
    return figures.cycle_run_invariants_pass &&
      figures.cycle_directories_valid &&
      figures.fs_floor_matches_checkpoint
      ? EXIT.ok
      : EXIT.failure
  })
}
