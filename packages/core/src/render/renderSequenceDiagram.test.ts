import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { TraceMessage } from '../contracts/trace.ts'
import { demoTrace } from './demoTrace.ts'
import {
  HIGHLIGHT_COLOUR,
  HIGHLIGHT_MARK,
  MAX_DIAGRAM_EVENTS,
  MAX_SOURCE_CHARS,
  PHASE_COLOURS,
  renderSequenceDiagram,
} from './renderSequenceDiagram.ts'
import { HOSTILE_STRINGS, largeTrace, traceEvent } from './testTraces.ts'

const lines = (source: string) => source.trimEnd().split('\n')
const declared = (source: string) =>
  lines(source)
    .filter((l) => l.startsWith('participant '))
    .map((l) => l.split(' ')[1])
const messages = (source: string) =>
  lines(source).filter((l) => /^[a-z_0-9]+(->>|-x)[a-z_0-9]+: /.test(l))

describe('renderSequenceDiagram', () => {
  it('[render-shape] draws a small trace: phases as rects with a phase note, one message per event, errors as -x', () => {
    const events = [
      traceEvent(1, {
        phase: 'prepare',
        from: 'controller',
        to: 'agent',
        type: 'agent.prepare',
        payload: { checkpoint_id: 'c1' },
      }),
      traceEvent(2, {
        phase: 'prepare',
        from: 'controller',
        to: 'resources_counter',
        type: 'resources.prepare',
      }),
      traceEvent(3, {
        phase: 'retire',
        from: 'controller',
        to: 'agent',
        type: 'agent.retire',
        payload: { rollout_id: 'r4', attempt_index: 1 },
      }),
      traceEvent(4, {
        phase: 'commit',
        from: 'resources_counter',
        to: 'directory',
        type: 'directory.write',
        payload: { path: 'resources/counter/r1.a1.json' },
      }),
      traceEvent(5, {
        phase: 'continue',
        from: 'rollout_r4',
        to: 'resources_counter',
        type: 'resources.step',
        payload: { rollout_id: 'r4', attempt_index: 1 },
        outcome: 'stale_attempt',
      }),
    ]
    const { source, window } = renderSequenceDiagram(events, { highlight: 3 })
    expect({ source, window }).toMatchInlineSnapshot(`
      {
        "source": "sequenceDiagram
      participant controller
      participant agent
      participant resources_counter
      participant directory
      participant rollouts as rollouts (1)
      rect rgb(219, 234, 254)
      Note over controller,rollouts: prepare
      controller->>agent: agent.prepare
      controller->>resources_counter: resources.prepare
      end
      rect rgb(254, 226, 226)
      Note over controller,rollouts: retire
      rect rgb(255, 214, 102)
      controller->>agent: ▶ agent.retire r4.a1
      end
      end
      rect rgb(220, 252, 231)
      Note over controller,rollouts: commit
      resources_counter->>directory: directory.write resources/counter/r1.a1.json
      end
      rect rgb(236, 252, 203)
      Note over controller,rollouts: continue
      rollouts-xresources_counter: resources.step ✗ stale_attempt r4.a1
      end
      ",
        "window": {
          "from": 1,
          "to": 5,
        },
      }
    `)
  })

  it('[render-order] declares participants in the contract order, workers by number, environments blackjack-counter-workplace', () => {
    const ids = [
      'directory',
      'rollout_r2',
      'resources_workplace',
      'model_worker_10',
      'token_store',
      'resources_blackjack',
      'generation_worker',
      'model_worker_2',
      'policy_model',
      'resources_counter',
      'agent',
      'controller',
      'rollout_r0',
    ]
    const events = ids.map((id, i) => traceEvent(i + 1, { from: id, to: id }))
    expect(declared(renderSequenceDiagram(events).source)).toEqual([
      'controller',
      'agent',
      'policy_model',
      'model_worker_2',
      'model_worker_10',
      'generation_worker',
      'token_store',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
      'directory',
      'rollouts',
    ])
  })

  it('[render-order] folds every rollout_<id> into one `rollouts (N)` lifeline; the message names the rollout', () => {
    const events = ['r000', 'r001', 'r002', 'r001'].map((r, i) =>
      traceEvent(i + 1, { from: `rollout_${r}`, to: 'policy_model', type: 'model.responses' }),
    )
    const { source } = renderSequenceDiagram(events)
    expect(lines(source)).toContain('participant rollouts as rollouts (3)')
    expect(messages(source)).toEqual([
      'rollouts->>policy_model: model.responses r000',
      'rollouts->>policy_model: model.responses r001',
      'rollouts->>policy_model: model.responses r002',
      'rollouts->>policy_model: model.responses r001',
    ])
  })

  it('[render-order] other environments follow workplace by name; unknown participants come last under generated ids', () => {
    const events = [
      'end',
      'resources_zoo',
      'note over',
      'resources_alpha',
      'resources_workplace',
      'rollout_r1',
    ].map((id, i) => traceEvent(i + 1, { from: 'controller', to: id }))
    const { source } = renderSequenceDiagram(events)
    expect(declared(source)).toEqual([
      'controller',
      'resources_workplace',
      'resources_alpha',
      'resources_zoo',
      'rollouts',
      'other_1',
      'other_2',
    ])
    expect(lines(source)).toContain('participant other_1 as end')
    expect(lines(source)).toContain('participant other_2 as note over')
    expect(messages(source)).toContain('controller->>other_1: agent.status')
  })

  it('[render-order] declares only participants that appear in the window', () => {
    const events = [
      traceEvent(1, { from: 'controller', to: 'token_store' }),
      traceEvent(2, { from: 'controller', to: 'agent' }),
      traceEvent(3, { from: 'agent', to: 'directory' }),
    ]
    expect(declared(renderSequenceDiagram(events, { window: { from: 2, to: 3 } }).source)).toEqual([
      'controller',
      'agent',
      'directory',
    ])
  })

  it('[render-order] with lifelines "trace", every window of a trace declares the same lifelines, rollouts counted over the trace', () => {
    const events = [
      traceEvent(1, { from: 'controller', to: 'agent' }),
      traceEvent(2, { from: 'rollout_r1', to: 'agent', payload: { rollout_id: 'r1' } }),
      traceEvent(3, { from: 'agent', to: 'directory' }),
      traceEvent(4, { from: 'rollout_r2', to: 'resources_counter', payload: { rollout_id: 'r2' } }),
    ]
    const at = (from: number, to: number) =>
      renderSequenceDiagram(events, { window: { from, to }, lifelines: 'trace' }).source
    const expected = ['controller', 'agent', 'resources_counter', 'directory', 'rollouts']
    for (const [from, to] of [
      [1, 1],
      [2, 3],
      [4, 4],
      [1, 4],
    ] as const)
      expect(declared(at(from, to))).toEqual(expected)
    expect(lines(at(1, 1))).toContain('participant rollouts as rollouts (2)')
    // a growing trace (a running run) is rescanned only for its new events, and sees them
    const growing = events.slice(0, 2)
    expect(declared(renderSequenceDiagram(growing, { lifelines: 'trace' }).source)).toEqual([
      'controller',
      'agent',
      'rollouts',
    ])
    growing.push(...events.slice(2))
    expect(
      declared(
        renderSequenceDiagram(growing, { window: { from: 1, to: 1 }, lifelines: 'trace' }).source,
      ),
    ).toEqual(expected)
  })

  it('[render-phases] each run of a phase is one rect in its own colour, opened by a note naming the phase', () => {
    const { source } = renderSequenceDiagram(demoTrace())
    const rects = lines(source).filter((l) => l.startsWith('rect '))
    expect(rects).toEqual(
      ['run', 'prepare', 'commit', 'restore', 'resume', 'continue'].map(
        (p) => `rect ${PHASE_COLOURS[p as keyof typeof PHASE_COLOURS]}`,
      ),
    )
    expect(new Set(Object.values(PHASE_COLOURS)).size).toBe(Object.keys(PHASE_COLOURS).length)
    expect(Object.values(PHASE_COLOURS)).not.toContain(HIGHLIGHT_COLOUR)
    const all = lines(source)
    all.forEach((l, i) => {
      if (l.startsWith('rect rgb') && l !== `rect ${HIGHLIGHT_COLOUR}`)
        expect(all[i + 1]).toMatch(/^Note over controller,rollouts: [a-z]+$/)
    })
    expect(lines(source).filter((l) => l === 'end')).toHaveLength(rects.length)
  })

  it('[render-highlight] the highlighted step is one line starting with ▶ inside a highlight rect, in its place', () => {
    const events = demoTrace()
    for (const step of [1, 12, events.length]) {
      const all = lines(renderSequenceDiagram(events, { highlight: step }).source)
      const marked = all.filter((l) => l.includes('▶'))
      expect(marked).toHaveLength(1)
      const at = all.indexOf(marked[0] as string)
      expect(all[at - 1]).toBe(`rect ${HIGHLIGHT_COLOUR}`)
      expect(all[at + 1]).toBe('end')
      expect(marked[0]).toContain(`: ▶ ${(events[step - 1] as TraceMessage).type}`)
      // Every event still drawn exactly once, in step order.
      expect(messages(all.join('\n'))).toHaveLength(events.length)
    }
    expect(renderSequenceDiagram(events).source).not.toContain('▶')
    expect(renderSequenceDiagram(events, { highlight: 0 }).source).not.toContain('▶')
  })

  it('[render-collapse] a collapsed phase run becomes one summary note with message and error counts', () => {
    const events = [
      traceEvent(1, { phase: 'prepare' }),
      ...Array.from({ length: 1_204 }, (_, i) =>
        traceEvent(i + 2, {
          phase: 'commit',
          outcome: i % 400 === 7 ? 'ledger_not_quiescent' : 'ok',
        }),
      ),
      traceEvent(1_206, { phase: 'resume' }),
    ]
    const { source } = renderSequenceDiagram(events, {
      collapsed: ['commit'],
      window: { from: 1, to: 1_206 },
    })
    expect(lines(source)).toContain('Note over controller,agent: commit: 1,204 messages, 3 errors')
    expect(messages(source)).toHaveLength(2)
    const one = renderSequenceDiagram([traceEvent(1, { phase: 'abort' })], {
      collapsed: ['abort'],
    }).source
    expect(lines(one)).toContain('Note over controller,agent: abort: 1 message')
  })

  it('[render-collapse] folds each consecutive run separately and keeps a highlighted message visible', () => {
    const phases = ['commit', 'commit', 'restore', 'commit', 'commit', 'commit'] as const
    const events = phases.map((phase, i) => traceEvent(i + 1, { phase }))
    const all = lines(renderSequenceDiagram(events, { collapsed: ['commit'], highlight: 5 }).source)
    expect(all.filter((l) => l.includes(': commit: '))).toEqual([
      'Note over controller,agent: commit: 2 messages',
      'Note over controller,agent: commit: 1 message',
      'Note over controller,agent: commit: 1 message',
    ])
    expect(all.filter((l) => l.includes('▶'))).toEqual(['controller->>agent: ▶ agent.status'])
    expect(messages(all.join('\n'))).toHaveLength(2) // the restore message and the highlighted one
  })

  it('[render-window] summarises the events outside the window in one note above and one below', () => {
    const events = Array.from({ length: 3_000 }, (_, i) => traceEvent(i + 1))
    const result = renderSequenceDiagram(events, { window: { from: 1_205, to: 1_300 } })
    expect(result.window).toEqual({ from: 1_205, to: 1_300 })
    const all = lines(result.source)
    expect(all).toContain('Note over controller,agent: … 1,204 earlier messages')
    expect(all[all.length - 1]).toBe('Note over controller,agent: … 1,700 later messages')
    expect(messages(result.source)).toHaveLength(96)
  })

  it('[render-window] defaults to a window around the highlight, or the last steps', () => {
    const events = Array.from({ length: 3_000 }, (_, i) => traceEvent(i + 1))
    expect(renderSequenceDiagram(events, { highlight: 1_000 }).window).toEqual({
      from: 940,
      to: 1_059,
    })
    expect(renderSequenceDiagram(events).window).toEqual({ from: 2_881, to: 3_000 })
  })

  it('[render-cap] maxEvents narrows the window around the highlight', () => {
    const events = Array.from({ length: 3_000 }, (_, i) => traceEvent(i + 1))
    const result = renderSequenceDiagram(events, {
      window: { from: 1, to: 3_000 },
      highlight: 2_000,
      maxEvents: 100,
    })
    expect(result.window).toEqual({ from: 1_950, to: 2_049 })
    expect(messages(result.source)).toHaveLength(100)
    expect(renderSequenceDiagram(events, { window: { from: 1, to: 3_000 } }).window.to - 0).toBe(
      3_000,
    )
  })

  it('[render-cap] a 50,000-event trace of a 1,000-rollout run stays under mermaid maxTextSize at any step and window', () => {
    const events = largeTrace(50_000)
    for (const highlight of [1, 7_143, 25_000, 49_999, 50_000]) {
      const byDefault = renderSequenceDiagram(events, { highlight })
      expect(byDefault.source.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS)
      expect(byDefault.window.from <= highlight && highlight <= byDefault.window.to).toBe(true)
      expect(byDefault.source).toContain('▶')
      // Asking for everything is narrowed around the highlight until the text fits.
      const everything = renderSequenceDiagram(events, {
        highlight,
        window: { from: 1, to: 50_000 },
      })
      expect(everything.source.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS)
      expect(everything.source.length).toBeLessThan(50_000)
      expect(everything.window.to - everything.window.from + 1).toBeLessThanOrEqual(
        MAX_DIAGRAM_EVENTS,
      )
      expect(everything.window.from <= highlight && highlight <= everything.window.to).toBe(true)
      expect(messages(everything.source)).toHaveLength(
        everything.window.to - everything.window.from + 1,
      )
    }
    // Collapsing phases lets the whole 2,000-event window through.
    const folded = renderSequenceDiagram(events, {
      highlight: 25_000,
      window: { from: 24_001, to: 26_000 },
      collapsed: ['run', 'prepare', 'retire', 'commit', 'restore', 'resume', 'continue'],
    })
    expect(folded.window).toEqual({ from: 24_001, to: 26_000 })
    expect(folded.source.length).toBeLessThan(2_000)
  })

  it('[render-sanitise] hostile payload strings stay inside their one message line', () => {
    const check = (hostile: string) => {
      const events = [
        traceEvent(1, {
          type: hostile,
          outcome: hostile === 'ok' ? 'x' : hostile,
          payload: { rollout_id: hostile, attempt_index: 1, path: hostile },
        }),
        traceEvent(2, { from: `rollout_${hostile}`, to: hostile, payload: { file: hostile } }),
        traceEvent(3, { phase: 'commit' }),
      ]
      const { source } = renderSequenceDiagram(events, { highlight: 2 })
      const all = lines(source)
      // Declarations + 2 rects (run, commit) with note + end + the highlight rect around step 2.
      expect(messages(source)).toHaveLength(3)
      for (const line of all) {
        expect(line).toMatch(
          /^(sequenceDiagram|participant [a-z_0-9]+( as .+)?|rect rgb\(\d+, \d+, \d+\)|end|[a-z_0-9]+(->>|-x)[a-z_0-9]+: .+|Note over [a-z_0-9]+(,[a-z_0-9]+)?: .+)$/,
        )
        const label = line.startsWith('participant ')
          ? (line.split(' as ')[1] ?? '')
          : line.slice(line.indexOf(': ') + 2)
        const text = label.replace(/#\d+;/g, '')
        // eslint-disable-next-line no-control-regex -- hostile control characters
        expect(text).not.toMatch(/[;#<>%&\u0000-\u001f\u007f\u0085\u2028\u2029]/)
        // Message labels hold no colon at all: the one before them ends the statement.
        if (!line.startsWith('Note over')) expect(text).not.toContain(':')
        // Payload parts are cut to ≤ 48 characters before escaping (≤ 7 characters each after).
        expect(line.length).toBeLessThan(1_200)
      }
      for (const line of all.filter((l) => l.startsWith('participant ')))
        expect(line).toMatch(/^participant [a-z_0-9]+( as [^:]+)?$/)
    }
    HOSTILE_STRINGS.forEach(check)
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => check(s)),
      { numRuns: 300 },
    )
  })

  it('[render-sanitise] a phase outside the contract cannot inject lines either', () => {
    for (const phase of ['constructor', 'toString', 'x\nend', 'a;b']) {
      const events = [traceEvent(1, { phase: phase as TraceMessage['phase'] })]
      for (const collapsed of [[], [phase as TraceMessage['phase']]]) {
        const all = lines(renderSequenceDiagram(events, { collapsed }).source)
        expect(all[3]).toBe(`rect ${PHASE_COLOURS.run}`)
        expect(all).toHaveLength(collapsed.length === 0 ? 7 : 6)
      }
    }
  })

  it('[render-pure] the same events and options give the same text', () => {
    const events = largeTrace(5_000)
    const a = renderSequenceDiagram(events, { highlight: 2_500, collapsed: ['commit'] })
    const b = renderSequenceDiagram(largeTrace(5_000), { highlight: 2_500, collapsed: ['commit'] })
    expect(a).toEqual(b)
  })

  it('[render-window] a window or cap that is not a number falls back to the defaults', () => {
    const events = Array.from({ length: 3_000 }, (_, i) => traceEvent(i + 1))
    expect(
      renderSequenceDiagram(events, {
        highlight: 1_000,
        window: { from: Number.NaN, to: 5 },
        maxEvents: Number.NaN,
      }).window,
    ).toEqual({ from: 940, to: 1_059 })
  })

  it('[render-empty] a trace without events is a valid one-note diagram', () => {
    expect(renderSequenceDiagram([])).toMatchObject({
      source: 'sequenceDiagram\nparticipant controller\nNote over controller: no messages yet\n',
      window: { from: 0, to: 0 },
    })
  })

  it('[render-plain] the plain source is the diagram without the highlight box and marker; the index and step map name the highlighted message', () => {
    const events = [1, 2, 3, 4, 5].map((n) =>
      traceEvent(n, {
        phase: n <= 2 ? 'run' : 'prepare',
        from: 'controller',
        to: n <= 2 ? 'agent' : 'policy_model',
        type: n <= 2 ? 'run.dispatch' : 'model.pause',
        ...(n === 4 ? { outcome: 'stale_attempt' } : {}),
      }),
    )
    const drawn = [1, 2, 3, 4, 5].map((highlight) =>
      renderSequenceDiagram(events, { highlight, window: { from: 1, to: 5 } }),
    )
    // two steps in the same window have the same plain source, so a client draws the SVG once
    expect(new Set(drawn.map((d) => d.plain)).size).toBe(1)
    expect(drawn[0]?.plain).not.toContain(HIGHLIGHT_MARK)
    expect(drawn[0]?.plain).not.toContain(HIGHLIGHT_COLOUR)
    expect(drawn.map((d) => d.highlightIndex)).toEqual([0, 1, 2, 3, 4])
    expect(drawn[0]?.messageSteps).toEqual([1, 2, 3, 4, 5])
    // the highlighted source is the plain one with the box around the marked message
    const marked = drawn[3]?.source.split('\n') ?? []
    const at = marked.findIndex((line) => line.includes(`: ${HIGHLIGHT_MARK} `))
    expect(marked[at - 1]).toBe(`rect ${HIGHLIGHT_COLOUR}`)
    expect(
      [
        ...marked.slice(0, at - 1),
        marked[at]?.replace(`${HIGHLIGHT_MARK} `, ''),
        ...marked.slice(at + 2),
      ].join('\n'),
    ).toBe(drawn[3]?.plain)
    expect(
      renderSequenceDiagram(events, { highlight: 99, window: { from: 1, to: 5 } }).highlightIndex,
    ).toBe(-1)
  })

  it('[render-plain] a folded phase keeps the highlighted message, and the step map skips the folded ones', () => {
    const events = [1, 2, 3, 4, 5].map((n) =>
      traceEvent(n, {
        phase: n <= 2 ? 'run' : 'prepare',
        from: 'controller',
        to: 'agent',
        type: 'run.dispatch',
      }),
    )
    const folded = renderSequenceDiagram(events, {
      highlight: 4,
      window: { from: 1, to: 5 },
      collapsed: ['prepare'],
    })
    expect(folded.messageSteps).toEqual([1, 2, 4])
    expect(folded.highlightIndex).toBe(2)
    expect(folded.plain).toContain('prepare: 1 message')
    expect(folded.plain).not.toContain(HIGHLIGHT_MARK)
  })
})
