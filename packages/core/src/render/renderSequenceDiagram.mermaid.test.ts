// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type mermaidApi from 'mermaid'
import type { TraceMessage } from '../contracts/trace.ts'
import { TRACE_PHASES } from '../contracts/trace.ts'
import { demoTrace } from './demoTrace.ts'
import { renderSequenceDiagram } from './renderSequenceDiagram.ts'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { HOSTILE_STRINGS, largeTrace, traceEvent } from './testTraces.ts'

// The real mermaid 11 parser (the one the web app draws with) is the judge of the produced text.
// It loads under happy-dom; drawing the SVG needs a layout engine, which the e2e suite has.

type Mermaid = typeof mermaidApi
interface ParsedMessage {
  readonly from?: string
  readonly to?: string
  readonly message: string
  readonly type: number
}
interface SequenceDb {
  getMessages(): ParsedMessage[]
  getActorKeys(): string[]
}

let mermaid: Mermaid
beforeAll(async () => {
  mermaid = (await import('mermaid')).default
  // The first parse registers the diagram types getDiagramFromText looks up.
  expect(await mermaid.parse('sequenceDiagram\nA->>B: hello')).toMatchObject({
    diagramType: 'sequence',
  })
})

/** Parses `source` with mermaid (throwing on a syntax error) and returns its sequence database. */
async function parse(source: string): Promise<{ actors: string[]; messages: ParsedMessage[] }> {
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(source)
  const db = diagram.db as unknown as SequenceDb
  return { actors: db.getActorKeys(), messages: db.getMessages() }
}

/** Mermaid keeps `#59;` entities as placeholders until it draws; decode them as it will. */
const decode = (text: string) =>
  text.replace(/ﬂ°°(\d+)¶ß/g, (_, code: string) => String.fromCharCode(Number(code)))

/** Parsed arrows between participants (notes carry a placement, block markers no `from`). */
const arrows = (messages: readonly ParsedMessage[]) =>
  messages.filter((m) => m.from !== undefined && !('placement' in m))

describe('renderSequenceDiagram output in the mermaid 11 parser', () => {
  it('[render-mermaid] the demo trace parses, plain, highlighted and with every phase collapsed', async () => {
    const events = demoTrace()
    for (const options of [
      {},
      { highlight: 12 },
      { highlight: 1, collapsed: TRACE_PHASES },
      { window: { from: 5, to: 9 }, highlight: 7 },
    ]) {
      const { source, window } = renderSequenceDiagram(events, options)
      expect(await mermaid.parse(source)).toMatchObject({ diagramType: 'sequence' })
      const { actors, messages } = await parse(source)
      expect(actors[0]).toBe('controller')
      if (!('collapsed' in options))
        expect(arrows(messages)).toHaveLength(window.to - window.from + 1)
    }
  })

  it('[render-mermaid] the highlighted message reaches mermaid with its ▶ marker and error arrows stay crosses', async () => {
    const events = demoTrace()
    const stale = events.findIndex((e) => e.outcome !== 'ok') + 1
    const { messages } = await parse(renderSequenceDiagram(events, { highlight: stale }).source)
    const marked = arrows(messages).filter((m) => m.message.startsWith('▶'))
    expect(marked).toHaveLength(1)
    expect(decode((marked[0] as ParsedMessage).message)).toBe(
      '▶ model.responses ✗ stale_attempt r0.a1',
    )
    const solid = arrows(messages).find((m) => m.message.startsWith('agent.run'))
    expect((marked[0] as ParsedMessage).type).not.toBe((solid as ParsedMessage).type)
  })

  it('[render-mermaid] hostile payload strings parse and arrive as exactly the text they were', async () => {
    const check = async (hostile: string) => {
      const events: TraceMessage[] = [
        traceEvent(1, {
          type: hostile,
          outcome: hostile,
          payload: { rollout_id: hostile, path: hostile },
        }),
        traceEvent(2, { from: `rollout_${hostile}`, to: hostile, type: 'x', payload: {} }),
        traceEvent(3, { phase: 'commit', type: 'directory.write', payload: { path: hostile } }),
      ]
      const { messages } = await parse(renderSequenceDiagram(events, { highlight: 2 }).source)
      const drawn = arrows(messages)
      expect(drawn).toHaveLength(3)
      const oneLine = hostile
        // eslint-disable-next-line no-control-regex -- hostile control characters
        .replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
      if (oneLine !== '' && Array.from(oneLine).length <= 24) {
        expect(decode((drawn[2] as ParsedMessage).message)).toBe(`directory.write ${oneLine}`)
      }
    }
    for (const hostile of HOSTILE_STRINGS) await check(hostile)
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), check), {
      numRuns: 40,
    })
  })

  it('[render-mermaid] windows of a 50,000-event trace parse, capped and collapsed', async () => {
    const events = largeTrace(50_000)
    for (const options of [
      { highlight: 25_000 },
      { highlight: 49_000, window: { from: 1, to: 50_000 } },
      { highlight: 100, window: { from: 1, to: 2_000 }, collapsed: ['run', 'prepare'] as const },
    ]) {
      const { source, window } = renderSequenceDiagram(events, options)
      const { actors, messages } = await parse(source)
      expect(actors).toContain('rollouts')
      if (!('collapsed' in options))
        expect(arrows(messages)).toHaveLength(window.to - window.from + 1)
    }
  })

  it('[render-cut] a cut and its continuation parse: token counts on the messages, a note on the worker under each, one arrow per event', async () => {
    const ids = { rollout_id: 'r0', attempt_index: 0, model_call_id: 'p3' }
    const events: TraceMessage[] = [
      traceEvent(1, {
        phase: 'prepare',
        from: 'policy_model',
        to: 'generation_worker',
        type: 'generation.cut',
        payload: { ...ids, prefix_token_count: 212 },
      }),
      traceEvent(2, {
        phase: 'prepare',
        from: 'generation_worker',
        to: 'token_store',
        type: 'token.stage_prefix',
        payload: { ...ids, prefix_token_count: 212 },
      }),
      traceEvent(3, {
        phase: 'prepare',
        from: 'generation_worker',
        to: 'policy_model',
        type: 'generation.cut_ack',
        payload: { ...ids, disposition: 'durable_prefix', prefix_token_count: 212 },
      }),
      traceEvent(4, {
        phase: 'continue',
        from: 'policy_model',
        to: 'generation_worker',
        type: 'generation.continue',
        payload: {
          rollout_id: 'r0',
          attempt_index: 1,
          model_call_id: 'p5',
          cut_model_call_id: 'p3',
          prefix_token_count: 212,
          prefix_delivery: 'staged',
        },
      }),
    ]
    for (const highlight of [1, 4]) {
      const { source, messageSteps } = renderSequenceDiagram(events, { highlight })
      expect(messageSteps).toEqual([1, 2, 3, 4])
      const { messages } = await parse(source)
      expect(arrows(messages).map((m) => decode(m.message).replace(/^▶ /, ''))).toEqual([
        'generation.cut r0.a0 cut at token 212 call p3',
        'token.stage_prefix r0.a0 prefix [0, 212) call p3',
        'generation.cut_ack r0.a0 durable_prefix k=212 call p3',
        'generation.continue r0.a1 from token 212 (staged) call p3',
      ])
      const notes = messages.filter((m) => 'placement' in m).map((m) => decode(m.message))
      expect(notes).toContain('✂ token 212 · [0, 212) staged · 212… goes on')
      expect(notes).toContain('↪ same call from token 212')
    }
  })

  it('[render-mermaid] a generation-safe cut parses with its token counts on the cut, the acknowledgement and the continuation', async () => {
    // Two rollouts (no Workplace data to load under happy-dom); r0 is the straggler.
    const result = runSimulation(
      resolveRunConfig({ scenario: 'generation-safe-cut', seed: '0', rollouts: 2 }),
      {
        digest: nodeDigest,
        openDirectory: (id) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
      },
    )
    const { messages } = await parse(
      renderSequenceDiagram(result.events, { window: { from: 1, to: result.events.length } })
        .source,
    )
    const texts = messages.map((m) => m.message)
    expect(texts.some((t) => t.includes('generation.cut r0.a0 cut at token'))).toBe(true)
    expect(texts.some((t) => t.includes('prefix [0,'))).toBe(true)
    expect(
      texts.some((t) => /generation\.continue r0\.a1 from token \d+ \(staged\) \+\d+/.test(t)),
    ).toBe(true)
  })

  it('[render-mermaid] the empty diagram parses', async () => {
    expect((await parse(renderSequenceDiagram([]).source)).actors).toEqual(['controller'])
  })
})
