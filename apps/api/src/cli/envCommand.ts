import {
  ALL_TABLES,
  RESOURCE_SNAPSHOT_SCHEMA_VERSION,
  createBlackjackServer,
  createCounterServer,
  createWorkplaceServer,
  parseWorkplaceBase,
  sessionTables,
  toSplit,
  verifyWorkplace,
} from '@cutover/core'
import type { CheckpointCodec, JsonValue, ResourceSnapshot } from '@cutover/core'
import { loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, wantsHelp } from './parseArgs.ts'
import { unknownNameMessage } from '@cutover/core/contracts'

/** What `cutover env` touches: its output streams and files it is asked to read. */
export interface EnvCommandIo {
  stdout(text: string): void
  stderr(text: string): void
  /** Reads a UTF-8 file; throws when it cannot. */
  readFile(path: string): string
}

export const ENV_HELP = `usage: cutover env blackjack --seed N [--actions hit,stand,...] [--json]
       cutover env counter --initial N [--increments 1,2,...] [--json]
       cutover env workplace --calls FILE [--ground-truth FILE] [--json]

Runs one environment exactly like its NeMo Gym reference server and prints the result with the
ResourceSnapshot its checkpoint codec would write after the last call.

  blackjack   --seed N: a non-negative integer of any size (CPython random.Random(N) deals).
              --actions: hit/stand, comma separated, sent in order after /reset. An action after
              the hand has ended is a usage error. The snapshot is null once the hand has ended.
  counter     --initial N: /seed_session initial_count; --increments: /increment_counter counts.
  workplace   --calls FILE: a JSON list of {"name", "arguments"} (arguments a JSON string, as in
              the dataset), run with route semantics after /seed_session (null arguments dropped;
              a tool exception becomes "Error executing tool '<name>': <message>").
              --ground-truth FILE: a list in the same form; adds "reward" (0 or 1), the reference
              verify semantics (both lists replayed on fresh state, graded tables compared).

Options:
  --json    print exactly one JSON object
  --help    show this help

JSON output:
  blackjack  { "observations", "player", "dealer", "result": null | { "reward", "terminated", "truncated", "info" }, "snapshot" }
  counter    { "count", "snapshot" }
  workplace  { "outputs", "tables": { name: { "columns", "index", "data" } }, "snapshot", "reward"? }

Exit status: 0 success; 2 usage or input error (one line on stderr).`

const fail = (message: string): never => {
  throw new UsageError(message)
}

/** What one environment run prints: the `--json` object, or the human lines. */
interface EnvRun {
  readonly result: Record<string, JsonValue>
  readonly human: string
}

const INTEGER = /^-?\d+$/

function parseIntList(text: string | undefined, flag: string): number[] {
  if (text === undefined || text === '') return []
  return text.split(',').map((s) => {
    const t = s.trim()
    if (!INTEGER.test(t) || !Number.isSafeInteger(Number(t)))
      fail(`${flag}: '${s}' is not an integer`)
    return Number(t)
  })
}

function snapshotOf<S>(
  codec: CheckpointCodec<S>,
  session: S | undefined,
  revision: number,
): ResourceSnapshot | null {
  if (session === undefined) return null
  const state = codec.exportState(session)
  if (!state.ok) fail(state.error.message)
  return {
    schema_version: RESOURCE_SNAPSHOT_SCHEMA_VERSION,
    rollout_id: 'r0',
    attempt_index: 0,
    state_revision: revision,
    state: (state as { value: JsonValue }).value,
    mutation_receipts: [],
    created_at: 0,
  }
}

const parseHand = (fmt: JsonValue | undefined): string[] =>
  typeof fmt === 'string' && fmt.length > 2 ? fmt.slice(1, -1).split(', ') : []

function runBlackjack(values: ReadonlyMap<string, string>): EnvRun {
  const seedText = values.get('--seed') ?? fail('--seed N is required')
  if (!/^\d+$/.test(seedText)) fail(`--seed: '${seedText}' is not a non-negative integer`)
  const actions = (values.get('--actions') ?? '')
    .split(',')
    .filter((a) => a.trim() !== '')
    .map((a) => a.trim().toLowerCase())
  for (const a of actions)
    if (a !== 'hit' && a !== 'stand') fail(`--actions: '${a}' is not hit or stand`)
  const server = createBlackjackServer({ seedForUnseededReset: () => BigInt(seedText) })
  const rcp = { input: [] }
  const reset = server.handle('/reset', { responses_create_params: rcp, seed: seedText }, undefined)
  let session = reset.session
  const observations: JsonValue[] = [
    (reset.response.body as { observation: JsonValue }).observation,
  ]
  let player: string[] = [...(session?.player ?? [])]
  let dealer: string[] = [...(session?.dealer ?? [])]
  let result: JsonValue = null
  let revision = 0
  actions.forEach((action, i) => {
    if (result !== null)
      fail(`--actions: '${action}' (action ${i + 1}) comes after the hand has ended`)
    const step = server.handle(
      '/step',
      {
        responses_create_params: rcp,
        response: { output: [{ type: 'message', content: `<action>${action}</action>` }] },
      },
      session,
    )
    const body = step.response.body as {
      observation: JsonValue
      reward: number
      terminated: boolean
      truncated: boolean
      info: { [k: string]: JsonValue }
    }
    if (body.observation !== null) observations.push(body.observation)
    session = step.session
    revision++
    if (step.closed) {
      result = {
        reward: body.reward,
        terminated: body.terminated,
        truncated: body.truncated,
        info: body.info,
      }
      player = parseHand(body.info['player'])
      if (body.info['dealer'] !== undefined) dealer = parseHand(body.info['dealer'])
    } else if (session) {
      player = [...session.player]
      dealer = [...session.dealer]
    }
  })
  const snapshot = snapshotOf(server.codec, session, revision)
  const lines = observations.map((o) => String(o))
  const r = result as { reward: number; info: { result: string } } | null
  lines.push(
    r
      ? `result: ${r.info.result} (reward ${r.reward}); player ${player.join(' ')}; dealer ${dealer.join(' ')}`
      : `hand in progress: ${session ? server.codec.describe(session) : ''}`,
  )
  return {
    result: { observations, player, dealer, result, snapshot: snapshot as unknown as JsonValue },
    human: lines.join('\n\n'),
  }
}

function runCounter(values: ReadonlyMap<string, string>): EnvRun {
  const initialText = values.get('--initial') ?? fail('--initial N is required')
  const [initial] = parseIntList(initialText, '--initial')
  const increments = parseIntList(values.get('--increments'), '--increments')
  const server = createCounterServer()
  let session = server.handle('/seed_session', { initial_count: initial ?? 0 }, undefined).session
  for (const count of increments)
    session = server.handle('/increment_counter', { count }, session).session
  const got = server.handle('/get_counter_value', {}, session)
  const count = (got.response.body as { count: number }).count
  const snapshot = snapshotOf(server.codec, got.session, increments.length)
  return {
    result: { count, snapshot: snapshot as unknown as JsonValue },
    human: `count ${count}`,
  }
}

function readCallList(
  io: EnvCommandIo,
  path: string,
  flag: string,
): { name: string; arguments: string }[] {
  let text: string
  try {
    text = io.readFile(path)
  } catch (e) {
    return fail(`${flag}: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return fail(`${flag}: ${path} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!Array.isArray(parsed))
    fail(`${flag}: ${path} must hold a JSON list of {"name", "arguments"}`)
  return (parsed as unknown[]).map((item, i) => {
    const c = item as { name?: unknown; arguments?: unknown }
    if (
      typeof item !== 'object' ||
      item === null ||
      typeof c.name !== 'string' ||
      typeof c.arguments !== 'string'
    )
      fail(`${flag}: item ${i} must be {"name": string, "arguments": JSON string}`)
    return { name: c.name as string, arguments: c.arguments as string }
  })
}

function runWorkplace(values: ReadonlyMap<string, string>, io: EnvCommandIo): EnvRun {
  const calls = readCallList(
    io,
    values.get('--calls') ?? fail('--calls FILE is required'),
    '--calls',
  )
  const gtPath = values.get('--ground-truth')
  const groundTruth = gtPath === undefined ? undefined : readCallList(io, gtPath, '--ground-truth')
  const parsedArgs = calls.map((c, i) => {
    let args: unknown
    try {
      args = JSON.parse(c.arguments)
    } catch {
      return fail(`--calls: item ${i} (${c.name}) has arguments that are not valid JSON`)
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      fail(`--calls: item ${i} (${c.name}) arguments must encode a JSON object`)
    return args as { [k: string]: JsonValue }
  })
  const base = parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)
  const server = createWorkplaceServer(base)
  let session = server.handle('/seed_session', {}, undefined).session
  const outputs: JsonValue[] = calls.map((c, i) => {
    const r = server.handle(`/${c.name}`, parsedArgs[i], session)
    session = r.session
    return (r.response.body as { output?: JsonValue }).output ?? r.response.body
  })
  if (session === undefined) return fail('internal: the workplace session was lost')
  const tables: { [name: string]: JsonValue } = {}
  const all = sessionTables(base, session)
  for (const name of ALL_TABLES) tables[name] = toSplit(all[name])
  const result: Record<string, JsonValue> = {
    outputs,
    tables,
    snapshot: snapshotOf(server.codec, session, calls.length) as unknown as JsonValue,
  }
  const lines = outputs.map(
    (o, i) => `${i + 1}. ${calls[i]?.name}: ${typeof o === 'string' ? o : JSON.stringify(o)}`,
  )
  lines.push(`tables: ${server.codec.describe(session)}`)
  if (groundTruth !== undefined) {
    const reward = verifyWorkplace(base, calls, groundTruth)
    result['reward'] = reward
    lines.push(`reward: ${reward}`)
  }
  return { result, human: lines.join('\n') }
}

/** Each environment: the options it takes and how it runs (every one also takes `--json`). */
const ENVIRONMENTS: Readonly<
  Record<
    string,
    {
      readonly values: readonly string[]
      readonly run: (values: ReadonlyMap<string, string>, io: EnvCommandIo) => EnvRun
    }
  >
> = {
  blackjack: { values: ['--seed', '--actions'], run: runBlackjack },
  counter: { values: ['--initial', '--increments'], run: runCounter },
  workplace: { values: ['--calls', '--ground-truth'], run: runWorkplace },
}

/**
 * `cutover env blackjack|counter|workplace` (docs/cli.md). `argv` holds the arguments after
 * `env`; returns the exit code: 0, or 2 with one line on stderr for bad input.
 */
export function runEnvCommand(argv: string[], io: EnvCommandIo): number {
  const [env, ...rest] = argv
  if (env === undefined || wantsHelp(argv)) {
    io.stdout(`${ENV_HELP}\n`)
    return env === undefined ? EXIT.usage : EXIT.ok
  }
  try {
    const environment = Object.hasOwn(ENVIRONMENTS, env) ? ENVIRONMENTS[env] : undefined
    if (environment === undefined)
      return fail(unknownNameMessage('environment', env, ['blackjack', 'counter', 'workplace']))
    const { values, switches } = parseArgs(rest, {
      values: environment.values,
      switches: ['--json'],
    })
    const run = environment.run(values, io)
    io.stdout(switches.has('--json') ? `${JSON.stringify(run.result)}\n` : `${run.human}\n`)
    return EXIT.ok
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`cutover env: ${e.message.split('\n')[0]}\n`)
      return EXIT.usage
    }
    throw e
  }
}
