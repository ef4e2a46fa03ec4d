import { parseArgs } from 'node:util'
import { diffTraces, summarizeDiff } from '@cutover/core'
import type { TraceEvent } from '@cutover/core/contracts'
import { differingFields } from '@cutover/core/contracts'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { resolveDataDir } from '../nodeAppDeps.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT } from '../process/io.ts'

export const DIFF_HELP = `usage: cutover diff RUN_A RUN_B [--json]

Compares two stored runs of the data directory (CUTOVER_DATA_DIR, or .cutover/ in the working
directory): aligns their traces on event content (phase, sender, receiver, type, payload,
outcome; virtual times are compared only when everything else matches), stops at the first
divergent event and lists every further difference in order.

Options:
  --json    print exactly one JSON object:
            { "identical": bool, "first_divergence": { "step_a", "step_b", "a", "b" } | null, "differences": <count> }
  --help    show this help

Exit status: 0 identical; 1 different; 2 usage error, an unknown run or a run without a trace.`

/** One event as one line. */
const line = (e: TraceEvent | undefined): string =>
  e === undefined
    ? '(no event)'
    : `${String(e.step).padStart(5)}  ${e.phase.padEnd(8)} ${e.from} → ${e.to}  ${e.type}${e.outcome === 'ok' ? '' : `  [${e.outcome}]`}`

/** `cutover diff RUN_A RUN_B [--json]` (docs/cli.md). */
export function runDiffCommand(
  argv: readonly string[],
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${DIFF_HELP}\n`)
    return EXIT.ok
  }
  let ids: string[]
  let json: boolean
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    })
    ids = parsed.positionals
    json = parsed.values.json === true
  } catch (error) {
    io.stderr(`cutover diff: ${(error as Error).message} (see cutover diff --help)\n`)
    return EXIT.usage
  }
  if (ids.length !== 2) {
    io.stderr(
      `cutover diff: expected two run ids, got ${ids.length} (usage: cutover diff RUN_A RUN_B [--json])\n`,
    )
    return EXIT.usage
  }
  const dataDir = resolveDataDir(env)
  const store = createFileRunStore(
    dataDir,
    (path, create) => new NodeCheckpointDirectory(path, { create }),
  )
  const stored = store.listRuns().runs
  const traces: TraceEvent[][] = []
  for (const id of ids) {
    const run = stored.find((r) => r.id === id)
    if (run === undefined) {
      io.stderr(`cutover diff: no run ${id} in ${dataDir}\n`)
      return EXIT.usage
    }
    const trace = store.readTrace(id)
    if (trace === undefined) {
      io.stderr(`cutover diff: run ${id} has no readable trace (status ${run.status})\n`)
      return EXIT.usage
    }
    traces.push([...trace])
  }
  const [a, b] = traces as [TraceEvent[], TraceEvent[]]
  const diff = diffTraces(a, b)
  const summary = summarizeDiff(diff, a, b)
  if (json) io.stdout(`${JSON.stringify(summary)}\n`)
  else if (summary.identical) io.stdout(`identical: ${ids[0]} and ${ids[1]} (${a.length} events)\n`)
  else {
    const out: string[] = [
      `${ids[0]} (A, ${a.length} events) and ${ids[1]} (B, ${b.length} events) differ: ${summary.differences} difference${summary.differences === 1 ? '' : 's'}${diff.truncated ? ' (too many to align past the last one)' : ''}`,
    ]
    const first = diff.differences[0]
    if (first !== undefined) {
      out.push(
        `first divergence: step ${first.step_a} of A, step ${first.step_b} of B`,
        `  A ${line(a[first.step_a - 1])}`,
        `  B ${line(b[first.step_b - 1])}`,
        `  differs in: ${differingFields(a[first.step_a - 1] ?? null, b[first.step_b - 1] ?? null).join(', ') || '(nothing)'}`,
      )
      if (first.a.length === 0 || first.b.length === 0) {
        const [extra, other] = first.a.length === 0 ? ['B', 'A'] : ['A', 'B']
        out.push(
          `  (${extra} has ${Math.max(first.a.length, first.b.length)} event(s) here that ${other} lacks; ${other} continues with the event shown)`,
        )
      }
    }
    for (const d of diff.differences.slice(1, 50)) {
      out.push(
        `then at A ${d.step_a} / B ${d.step_b}: ${d.a.length} event${d.a.length === 1 ? '' : 's'} of A, ${d.b.length} of B`,
      )
      for (const e of d.a.slice(0, 3)) out.push(`  A ${line(e)}`)
      for (const e of d.b.slice(0, 3)) out.push(`  B ${line(e)}`)
      // events replaced one for one: which fields of each pair differ
      if (d.a.length === d.b.length)
        d.a.slice(0, 3).forEach((e, k) => {
          const fields = differingFields(e, d.b[k] ?? null)
          if (fields.length > 0) out.push(`  differs in: ${fields.join(', ')}`)
        })
    }
    if (diff.differences.length > 50)
      out.push(`… ${diff.differences.length - 50} more (--json for the count)`)
    io.stdout(`${out.join('\n')}\n`)
  }
  return summary.identical ? EXIT.ok : EXIT.failure
}
