import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'

/** `cutover bench --record --json`: what a recording proxy costs a `/v1/responses` call. */
export interface RecordBenchFigures {
  /** Sequential calls measured on each path (after the warm-up). */
  readonly record_calls: number
  readonly record_latency_direct_ms_median: number
  readonly record_latency_proxy_ms_median: number
  /** Median over pairs (one direct, one through the proxy, back to back) of proxy − direct. */
  readonly record_added_latency_ms_median: number
  readonly record_added_latency_ms_p95: number
  readonly record_concurrency: number
  readonly record_responses_per_s_direct: number
  readonly record_responses_per_s_proxy: number
  /** proxy / direct throughput. */
  readonly record_throughput_ratio: number
  /** Lines in the recording after it was closed, against the calls sent through the proxy. */
  readonly record_exchanges_recorded: number
  readonly record_proxy_requests: number
  readonly record_notes: readonly string[]
}

const BODY = JSON.stringify({
  input: 'hello',
  metadata: {
    cutover_policy: JSON.stringify({
      environment: 'counter',
      task: 0,
      turn: 0,
      observation: null,
      done: false,
    }),
  },
})

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}
const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits

/** One POST /v1/responses over a kept-alive connection; its wall time in ms. */
function call(base: URL, agent: Agent, rollout: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = request(
      {
        agent,
        hostname: base.hostname,
        port: base.port,
        method: 'POST',
        path: '/v1/responses',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(BODY),
          'x-nemo-gym-rollout-id': rollout,
          'x-nemo-gym-attempt-index': '0',
        },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - start)
            : reject(new Error(`/v1/responses answered ${res.statusCode ?? '?'}`)),
        )
      },
    )
    req.on('error', reject)
    req.end(BODY)
  })
}

/** Calls answered per second by `concurrency` clients calling back to back for `ms`. */
async function throughput(
  base: URL,
  concurrency: number,
  ms: number,
  tag: string,
): Promise<{ rate: number; done: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const until = performance.now() + ms
  let done = 0
  await Promise.all(
    Array.from({ length: concurrency }, async (_, c) => {
      let n = 0
      while (performance.now() < until) {
        await call(base, agent, `${tag}${c}-${n++}`)
        done++
      }
    }),
  )
  agent.destroy()
  return { rate: done / (ms / 1000), done }
}

/**
 * Measures a recording proxy against the same `cutover model` reached directly: `cutover model`
 * and `cutover record --upstream policy=…` as their own processes on loopback, the same
 * `/v1/responses` call (identity headers, a scripted-policy body) sent back to back, one direct
 * and one through the proxy in turn (the median of the pairwise difference is the added latency),
 * then `concurrency` clients for `seconds` on each path (calls per second). The recording is
 * closed (SIGTERM) and its lines counted against the calls the proxy carried.
 */
export async function measureRecordBench(
  options: {
    readonly calls?: number
    readonly concurrency?: number
    readonly seconds?: number
    readonly progress?: (line: string) => void
  } = {},
): Promise<RecordBenchFigures> {
  const calls = options.calls ?? 400
  const concurrency = options.concurrency ?? 16
  const seconds = options.seconds ?? 4
  const say = options.progress ?? (() => undefined)
  const temp = mkdtempSync(join(tmpdir(), 'cutover-bench-record-'))
  const model = await spawnParticipant(['model', '--port', '0'], {
    CUTOVER_DATA_DIR: join(temp, 'model'),
  })
  const recorder = spawn(
    process.execPath,
    [CUTOVER_BIN, 'record', '--upstream', `policy=${model.url}`, '--json'],
    {
      env: { ...process.env, CUTOVER_DATA_DIR: join(temp, 'data'), CUTOVER_PARENT_STDIN: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  const exited = new Promise<void>((r) => recorder.once('exit', () => r()))
  try {
    const proxyUrl = await new Promise<string>((resolve, reject) => {
      let out = ''
      recorder.once('exit', () => reject(new Error('cutover record exited')))
      recorder.stdout.setEncoding('utf8').on('data', (t: string) => {
        out += t
        if (out.includes('\n'))
          resolve((JSON.parse(out) as { proxies: { url: string }[] }).proxies[0]?.url ?? '')
      })
    })
    const direct = new URL(model.url)
    const proxy = new URL(proxyUrl)
    let proxied = 0
    const agentDirect = new Agent({ keepAlive: true, maxSockets: 1 })
    const agentProxy = new Agent({ keepAlive: true, maxSockets: 1 })
    say(`cutover bench --record: warm-up, then ${calls} calls on each path…`)
    for (let i = 0; i < 100; i++) {
      await call(direct, agentDirect, `w${i}`)
      await call(proxy, agentProxy, `w${i}`)
      proxied++
    }
    const d: number[] = []
    const p: number[] = []
    const diff: number[] = []
    for (let i = 0; i < calls; i++) {
      // Alternate which path goes first, so a slow moment of the machine falls on both.
      const first = i % 2 === 0
      const a = first ? await call(direct, agentDirect, `l${i}`) : 0
      const b = await call(proxy, agentProxy, `l${i}`)
      const c = first ? a : await call(direct, agentDirect, `l${i}`)
      proxied++
      d.push(c)
      p.push(b)
      diff.push(b - c)
    }
    agentDirect.destroy()
    agentProxy.destroy()
    say(`cutover bench --record: ${concurrency} clients for ${seconds} s on each path…`)
    const directRate = (await throughput(direct, concurrency, seconds * 1000, 'td')).rate
    const viaProxy = await throughput(proxy, concurrency, seconds * 1000, 'tp')
    const proxyRate = viaProxy.rate
    proxied += viaProxy.done
    recorder.kill('SIGTERM')
    await exited
    const runs = join(temp, 'data', 'runs')
    const id = readdirSync(runs)[0] ?? ''
    const recorded = readFileSync(join(runs, id, 'exchanges.jsonl'), 'utf8').split('\n').length - 1
    return {
      record_calls: calls,
      record_latency_direct_ms_median: round(quantile(d, 0.5)),
      record_latency_proxy_ms_median: round(quantile(p, 0.5)),
      record_added_latency_ms_median: round(quantile(diff, 0.5)),
      record_added_latency_ms_p95: round(quantile(diff, 0.95)),
      record_concurrency: concurrency,
      record_responses_per_s_direct: Math.round(directRate),
      record_responses_per_s_proxy: Math.round(proxyRate),
      record_throughput_ratio: round(proxyRate / directRate),
      record_exchanges_recorded: recorded,
      record_proxy_requests: proxied,
      record_notes: [
        'cutover model and cutover record are separate processes on loopback, each client on a kept-alive connection; the machine is shared, so figures move between runs',
        'the added latency is the median, over back-to-back pairs, of (through the proxy − direct) for the same call',
        `throughput: ${concurrency} clients calling back to back for ${seconds} s on each path; the model's own work (admission, the scripted policy, custody) bounds both`,
        'record_exchanges_recorded (lines in the closed recording) equals record_proxy_requests (calls the proxy carried) when nothing was lost',
      ],
    }
  } finally {
    if (recorder.exitCode === null) recorder.kill('SIGTERM')
    await exited
    await model.stop()
    rmSync(temp, { recursive: true, force: true })
  }
}
