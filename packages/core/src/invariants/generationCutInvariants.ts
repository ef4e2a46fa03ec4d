import type { TraceEvent } from '../contracts/trace.ts'
import type { InvariantId } from '../contracts/views.ts'

type Fail = (id: InvariantId, step: number, message: string) => void

/** What a cut call's acknowledgement fixed: its prefix. */
interface CutPrefix {
  readonly prefix_token_count: number
  readonly prefix_digest: string
}

/**
 * The invariants of generation-safe cuts (docs/protocol.md §11.6), read from the trace as it grows:
 * - `durable-before-ack`: no `durable_prefix` acknowledgement before every segment it names was
 *   staged durably (`token.stage_prefix`, durable, ok);
 * - `egress-fenced`: no response of a frozen ticket reaches the agent between its
 *   `model.egress_fenced` and its `model.egress_released`;
 * - `token-partition`: a continued call resumes decoding exactly at the cut's token k
 *   (`resume_from` = the acknowledged `prefix_token_count`: earlier overlaps the prefix, later
 *   leaves a gap), from the prefix that was acknowledged (count and digest), and its final output
 *   is exactly prefix + continuation.
 */
export class GenerationCutInvariants {
  readonly #fail: Fail
  /** Staging keys staged durably, per checkpoint. */
  readonly #durable = new Set<string>()
  /** Model call id → the checkpoint whose fence holds its response. */
  readonly #fenced = new Map<string, string>()
  /** Cut call id → its acknowledged prefix. */
  readonly #prefixes = new Map<string, CutPrefix>()
  /** Continued call id → the token count its final output must have. */
  readonly #expected = new Map<string, number>()

  constructor(fail: Fail) {
    this.#fail = fail
  }

  observe(e: TraceEvent): void {
    switch (e.type) {
      case 'token.stage_prefix':
        if (e.outcome === 'ok' && e.payload.durable)
          this.#durable.add(`${e.payload.checkpoint_id}/${e.payload.staging_key}`)
        return
      case 'generation.cut_ack': {
        const p = e.payload
        if (p.disposition !== 'durable_prefix' && p.disposition !== 'completed_durable') return
        for (const key of p.staging_keys)
          if (!this.#durable.has(`${p.checkpoint_id}/${key}`))
            return this.#fail(
              'durable-before-ack',
              e.step,
              `${p.disposition} of ${p.model_call_id} acknowledged before segment ${key} was durable in the token store`,
            )
        if (p.prefix_token_count !== null && p.prefix_digest !== null)
          this.#prefixes.set(p.model_call_id, {
            prefix_token_count: p.prefix_token_count,
            prefix_digest: p.prefix_digest,
          })
        return
      }
      case 'model.egress_fenced':
        this.#fenced.set(e.payload.model_call_id, e.payload.checkpoint_id)
        return
      case 'model.egress_released':
        this.#fenced.delete(e.payload.model_call_id)
        return
      case 'model.response': {
        const cid = this.#fenced.get(e.payload.model_call_id)
        if (cid !== undefined && e.outcome === 'ok')
          this.#fail(
            'egress-fenced',
            e.step,
            `the response of frozen call ${e.payload.model_call_id} reached the agent before checkpoint ${cid}'s disposition was known`,
          )
        return
      }
      case 'generation.continue': {
        const p = e.payload
        const cut = this.#prefixes.get(p.cut_model_call_id)
        if (cut === undefined)
          return this.#fail(
            'token-partition',
            e.step,
            `${p.model_call_id} continues ${p.cut_model_call_id}, which has no acknowledged prefix`,
          )
        if (
          p.prefix_token_count !== cut.prefix_token_count ||
          p.prefix_digest !== cut.prefix_digest
        )
          return this.#fail(
            'token-partition',
            e.step,
            `${p.model_call_id} continues from a prefix of ${p.prefix_token_count} tokens that is not the ${cut.prefix_token_count} acknowledged for ${p.cut_model_call_id}`,
          )
        const from = typeof p['resume_from'] === 'number' ? p['resume_from'] : p.prefix_token_count
        if (from !== p.prefix_token_count)
          return this.#fail(
            'token-partition',
            e.step,
            `${p.model_call_id} resumes decoding at token ${from}, not at the cut's token ${p.prefix_token_count}: ${from < p.prefix_token_count ? `${p.prefix_token_count - from} token(s) in both the prefix and the continuation` : `a gap of ${from - p.prefix_token_count} token(s)`}`,
          )
        this.#expected.set(p.model_call_id, p.prefix_token_count + p.continuation_token_count)
        return
      }
      case 'generation.coordinates': {
        const want = this.#expected.get(e.payload.model_call_id)
        if (want === undefined) return
        this.#expected.delete(e.payload.model_call_id)
        if (e.payload.delta_len !== want)
          this.#fail(
            'token-partition',
            e.step,
            `${e.payload.model_call_id} produced ${e.payload.delta_len} tokens, not prefix + continuation = ${want}`,
          )
        return
      }
      default:
        return
    }
  }
}
