import { ENV_NAMES } from '../contracts/environments.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import type { InvariantFailure, InvariantId, InvariantMap } from '../contracts/views.ts'
import { INVARIANT_IDS } from '../contracts/views.ts'
import type { JsonValue } from '../json.ts'
import { writesAttemptState } from './writesAttemptState.ts'
import { GenerationCutInvariants } from './generationCutInvariants.ts'

const NAMESPACE_MANIFEST = /^(model-ledger\/[^/]+|agent|resources\/[^/]+)\/manifest\.json$/
const NAMESPACE_FILE = /^(model-ledger\/[^/]+|agent|resources\/[^/]+)\//
const AGGREGATE = 'nemo_gym_checkpoint_manifest.json'
const TOKEN_STORE = 'token-store/manifest.json'
const MARKER = 'checkpoint.json'
const RESUME_DEPENDENCIES = ['policy_model', ...ENV_NAMES.map((env) => `resources_${env}`)]

interface DirState {
  readonly manifests: Set<string>
  aggregate: boolean
  tokenStore: boolean
  marker: boolean
}

/**
 * The invariants (docs/protocol.md §12.4), evaluated incrementally as the trace grows; each failure
 * keeps its first failing step and a message. `equivalence` is decided when the run ends.
 */
export class InvariantChecker {
  readonly failures: InvariantFailure[] = []
  readonly #failed = new Set<InvariantId>()
  readonly #dirs = new Map<string, DirState>()
  readonly #fenced = new Set<string>()
  /** Fences a restore installed in fresh processes; dropped when that restore is abandoned. */
  readonly #restoreFenced = new Set<string>()
  readonly #revisions = new Map<string, number>()
  /** Per resume (or abort) round: which dependencies resumed, whether the agent resumed. */
  #resumeDeps = new Set<string>()
  /**
   * Dependencies a prepare or restore was sent to since the last resume round: those the agent's
   * resume must follow (an abort resumes only them). Empty when the trace shows none (a resume on
   * its own): then every dependency.
   */
  #askedDeps = new Set<string>()
  #agentResumed = false
  #resumeOpen = false
  /** N+1 key → the N call it must link to; relays consumed. */
  readonly #relayExpect = new Map<string, string>()
  readonly #relaySeen = new Map<string, number>()
  readonly #firstCall = new Set<string>()
  /** Model call id → the execution (`r004.a1`) it was issued to. */
  readonly #callOwner = new Map<string, string>()
  /**
   * Exact receipts of completed results not yet acknowledged; those an `agent.prepare` found, by
   * checkpoint.
   */
  readonly #unreleased = new Set<string>()
  readonly #unreleasedAtPrepare = new Map<string, string>()
  readonly #cuts = new GenerationCutInvariants((id, step, message) => this.fail(id, step, message))

  fail(id: InvariantId, step: number, message: string): void {
    if (this.#failed.has(id)) return
    this.#failed.add(id)
    this.failures.push({ id, step, message })
  }

  map(): InvariantMap {
    const out: { [K in InvariantId]?: 'pass' | 'fail' } = {}
    for (const id of INVARIANT_IDS) out[id] = this.#failed.has(id) ? 'fail' : 'pass'
    return out as InvariantMap
  }

  observe(e: TraceEvent): void {
    const p = e.payload
    if (e.type === 'directory.write' && e.outcome === 'ok')
      this.#manifestLast(e, String(p['checkpoint_id']), String(p['path']))
    this.#fencedSilent(e)
    this.#revisionMonotonic(e)
    this.#restoreAllOrNothing(e)
    this.#resumeOrder(e)
    this.#relayOnce(e)
    this.#callIdUnique(e)
    this.#acksBeforePrepare(e)
    this.#cuts.observe(e)
  }

  /**
   * Completed results are acknowledged with their exact receipts before the agents are asked to
   * prepare (docs/protocol.md §3.6 step 2): no receipt still unacknowledged at checkpoint N's
   * `agent.prepare` is acknowledged after it.
   */
  #acksBeforePrepare(e: TraceEvent): void {
    const p = e.payload
    if (e.type === 'run.complete') {
      const key = this.#receiptKey(p['receipt'])
      if (e.outcome === 'ok' && key !== null) this.#unreleased.add(key)
      return
    }
    if (e.type === 'agent.prepare') {
      for (const key of this.#unreleased)
        this.#unreleasedAtPrepare.set(key, String(p['checkpoint_id']))
      return
    }
    if (e.type !== 'agent.acknowledge') return
    const receipts = p['receipts']
    const keys = (Array.isArray(receipts) ? receipts : [])
      .map((r) => this.#receiptKey(r))
      .filter((k) => k !== null)
    for (const key of keys) {
      const cid = this.#unreleasedAtPrepare.get(key)
      if (cid !== undefined)
        return this.fail(
          'acks-before-prepare',
          e.step,
          `result ${key} acknowledged after agent.prepare of ${cid}`,
        )
    }
    if (e.outcome === 'ok') for (const key of keys) this.#unreleased.delete(key)
  }

  /**
   * A completion receipt as one exact key (`r004.a0.g1:<identity>:<digest>`), or null when it is
   * not one.
   */
  #receiptKey(r: JsonValue | undefined): string | null {
    if (r === null || r === undefined || typeof r !== 'object' || Array.isArray(r)) return null
    const key = this.#identity(r)
    const { execution_generation: g, result_identity: id, result_digest: digest } = r
    if (
      key === null ||
      typeof g !== 'number' ||
      typeof id !== 'string' ||
      typeof digest !== 'string'
    )
      return null
    return `${key}.g${g}:${id}:${digest}`
  }

  /**
   * Every admitted model call gets an id no other call of the run (any attempt, any process) had.
   */
  #callIdUnique(e: TraceEvent): void {
    if (e.type !== 'model.request') return
    const id = e.payload['model_call_id']
    const key = this.#identity(e.payload)
    if (typeof id !== 'string' || key === null) return
    const owner = this.#callOwner.get(id)
    if (owner !== undefined)
      return this.fail(
        'call-id-unique',
        e.step,
        `model call id ${id} issued to ${key} was already issued to ${owner}`,
      )
    this.#callOwner.set(id, key)
  }

  #manifestLast(e: TraceEvent, cid: string, path: string): void {
    let d = this.#dirs.get(cid)
    if (d === undefined) {
      d = { manifests: new Set(), aggregate: false, tokenStore: false, marker: false }
      this.#dirs.set(cid, d)
    }
    if (d.marker)
      return this.fail('manifest-last', e.step, `${path} written after checkpoint.json in ${cid}`)
    const ns = NAMESPACE_FILE.exec(path)?.[1]
    if (ns !== undefined) {
      if (d.aggregate)
        return this.fail(
          'manifest-last',
          e.step,
          `${path} written after the aggregate manifest in ${cid}`,
        )
      if (NAMESPACE_MANIFEST.test(path)) d.manifests.add(ns)
      else if (d.manifests.has(ns))
        return this.fail(
          'manifest-last',
          e.step,
          `${path} written after its namespace manifest in ${cid}`,
        )
      return
    }
    if (path === AGGREGATE) {
      const needed = ['agent', 'model-ledger/policy', ...ENV_NAMES.map((env) => `resources/${env}`)]
      const missing = needed.filter((n) => !d.manifests.has(n))
      if (missing.length > 0)
        return this.fail(
          'manifest-last',
          e.step,
          `aggregate manifest written before ${missing.join(', ')} manifests in ${cid}`,
        )
      d.aggregate = true
    } else if (path === TOKEN_STORE) {
      if (!d.aggregate)
        return this.fail(
          'manifest-last',
          e.step,
          `token-store manifest written before the aggregate in ${cid}`,
        )
      d.tokenStore = true
    } else if (path === MARKER) {
      if (!d.aggregate || !d.tokenStore)
        return this.fail(
          'manifest-last',
          e.step,
          `checkpoint.json written before the aggregate and token-store manifests in ${cid}`,
        )
      d.marker = true
    }
  }

  #identity(p: { readonly [key: string]: JsonValue }): string | null {
    const r = p['rollout_id']
    const a = p['attempt_index']
    return typeof r === 'string' && typeof a === 'number' ? `${r}.a${a}` : null
  }

  #fencedSilent(e: TraceEvent): void {
    const p = e.payload
    const key = this.#identity(p)
    if (e.outcome === 'ok') {
      if (
        e.type === 'model.abort_inflight' ||
        e.type === 'agent.retire' ||
        e.type === 'resources.retire'
      ) {
        if (key !== null) this.#fenced.add(key)
        return
      }
      if (e.type === 'agent.restore' || e.type === 'model.restore') {
        const result = p['result']
        const list =
          result !== null && typeof result === 'object' && !Array.isArray(result)
            ? e.type === 'agent.restore'
              ? result['continuations']
              : result['source_attempts']
            : null
        if (Array.isArray(list))
          for (const k of list) {
            if (typeof k !== 'string') continue
            if (e.type === 'model.restore') this.#restoreFenced.add(k)
            else {
              // continuations are N+1 keys: fence N.
              const at = k.lastIndexOf('.a')
              this.#restoreFenced.add(`${k.slice(0, at)}.a${Number(k.slice(at + 2)) - 1}`)
            }
          }
        return
      }
    }
    // An abandoned restore's fresh processes are discarded: the original attempt N continues
    // legally.
    if (e.type === 'controller.restore_abandoned') this.#restoreFenced.clear()
    if (e.phase === 'resume' && e.type === 'model.resume' && e.outcome === 'ok') {
      // The restore was adopted: its fences are permanent.
      for (const k of this.#restoreFenced) this.#fenced.add(k)
      this.#restoreFenced.clear()
    }
    if (
      key !== null &&
      e.outcome === 'ok' &&
      writesAttemptState(e.type) &&
      (this.#fenced.has(key) || this.#restoreFenced.has(key))
    )
      this.fail(
        'fenced-attempt-silent',
        e.step,
        `fenced attempt ${key} wrote (${e.type} to ${e.to} accepted)`,
      )
  }

  #revisionMonotonic(e: TraceEvent): void {
    if (e.type !== 'env.request' && e.type !== 'env.verify' && e.type !== 'env.start') return
    const p = e.payload
    const key = this.#identity(p)
    const before = p['revision_before']
    const after = p['revision']
    if (key === null || typeof after !== 'number') return
    const last = this.#revisions.get(key)
    if (last !== undefined && after < last)
      return this.fail(
        'revision-monotonic',
        e.step,
        `revision of ${key} went from ${last} to ${after}`,
      )
    if (typeof before === 'number' && p['replayed'] !== true) {
      const success = p['success'] === true
      if (!success && after !== before)
        return this.fail(
          'revision-monotonic',
          e.step,
          `revision of ${key} changed on a failed request`,
        )
      if (success && e.type !== 'env.start' && after !== before + 1)
        return this.fail(
          'revision-monotonic',
          e.step,
          `revision of ${key} did not rise by one on success`,
        )
    }
    this.#revisions.set(key, after)
  }

  #restoreAllOrNothing(e: TraceEvent): void {
    if (e.type !== 'resources.restore') return
    const expected = e.payload['expected']
    const activated = e.payload['activated']
    if (typeof activated !== 'number') return
    if (e.outcome !== 'ok' && activated > 0)
      this.fail(
        'restore-all-or-nothing',
        e.step,
        `failed restore of ${e.to} activated ${activated} sessions`,
      )
    if (e.outcome === 'ok' && typeof expected === 'number' && activated !== expected)
      this.fail(
        'restore-all-or-nothing',
        e.step,
        `restore of ${e.to} activated ${activated} of ${expected} sessions`,
      )
  }

  #resumeOrder(e: TraceEvent): void {
    if (
      (e.type === 'model.pause' ||
        e.type === 'resources.prepare' ||
        e.type === 'model.restore' ||
        e.type === 'resources.restore') &&
      e.from === 'controller'
    )
      this.#askedDeps.add(e.to)
    const isResume =
      e.type === 'model.resume' || e.type === 'resources.resume' || e.type === 'agent.resume'
    if (isResume && !this.#resumeOpen) {
      this.#resumeOpen = true
      this.#resumeDeps = new Set()
      this.#agentResumed = false
    }
    if (!isResume && this.#resumeOpen && e.type === 'run.dispatch' && e.from === 'controller') {
      if (!this.#agentResumed)
        this.fail('resume-order', e.step, 'dispatch before the agent resumed')
      this.#resumeOpen = false
      return
    }
    if (!isResume) return
    if (e.type === 'agent.resume') {
      const required =
        this.#askedDeps.size === 0
          ? RESUME_DEPENDENCIES
          : RESUME_DEPENDENCIES.filter((d) => this.#askedDeps.has(d))
      const missing = required.filter((d) => !this.#resumeDeps.has(d))
      if (missing.length > 0)
        this.fail('resume-order', e.step, `agent resumed before ${missing.join(', ')}`)
      this.#askedDeps = new Set()
      this.#agentResumed = true
      this.#resumeOpen = false
    } else this.#resumeDeps.add(e.to)
  }

  #relayOnce(e: TraceEvent): void {
    const p = e.payload
    if (e.type === 'model.restore' && e.outcome === 'ok') {
      const result = p['result']
      const relays =
        result !== null && typeof result === 'object' && !Array.isArray(result)
          ? result['relays']
          : null
      if (relays !== null && typeof relays === 'object' && !Array.isArray(relays))
        for (const [k, v] of Object.entries(relays))
          if (typeof v === 'string') this.#relayExpect.set(k, v)
      return
    }
    if (e.type !== 'model.request' || e.outcome !== 'ok' || e.from !== 'agent') return
    const key = this.#identity(p)
    if (key === null) return
    const expected = this.#relayExpect.get(key)
    const first = !this.#firstCall.has(key)
    this.#firstCall.add(key)
    if (expected === undefined) {
      if (p['relay'] === true)
        this.fail('relay-once', e.step, `${key} relayed without a restored parent`)
      return
    }
    if (p['relay'] === true) {
      const seen = (this.#relaySeen.get(key) ?? 0) + 1
      this.#relaySeen.set(key, seen)
      if (seen > 1)
        return this.fail('relay-once', e.step, `${key} linked to its restored parent ${seen} times`)
      if (!first) return this.fail('relay-once', e.step, `${key} relayed on a later call`)
      if (p['parent_call_id'] !== expected)
        return this.fail(
          'relay-once',
          e.step,
          `${key} linked to ${String(p['parent_call_id'])}, not ${expected}`,
        )
    } else if (first)
      this.fail('relay-once', e.step, `first call of ${key} did not link to ${expected}`)
  }
}
