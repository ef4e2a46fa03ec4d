import { describe, expect, it } from 'vitest'
import { collapsePhases } from './collapsePhases.ts'
import { diagramKey, highlightIndex, messageLines, unwrapHighlight } from './mermaidSource.ts'

/** The shape the API's renderer draws: phase rects with a note, the current message in its own box. */
const diagram = (highlight: number) =>
  [
    'sequenceDiagram',
    'participant controller',
    'participant agent',
    'participant policy_model',
    'rect rgb(241, 243, 245)',
    'Note over controller,policy_model: run',
    ...[1, 2].flatMap((s) => (s === highlight ? ['rect rgb(255, 214, 102)', `controller->>agent: ▶ run.dispatch r${s}`, 'end'] : [`controller->>agent: run.dispatch r${s}`])),
    'end',
    'rect rgb(219, 234, 254)',
    'Note over controller,policy_model: prepare',
    ...[3, 4, 5].flatMap((s) => {
      // step 4 is refused: `-x` and the code in the label
      const line = (mark: string) => (s === 4 ? `controller-xpolicy_model: ${mark}model.pause ✗ stale_attempt` : `controller->>policy_model: ${mark}model.pause ${s}`)
      return s === highlight ? ['rect rgb(255, 214, 102)', line('▶ '), 'end'] : [line('')]
    }),
    'end',
    '',
  ].join('\n')

describe('mermaid source', () => {
  it('[highlight] two steps in the same window have the same key, so the SVG is drawn once', () => {
    const keys = [1, 2, 3, 4, 5].map((s) => diagramKey(unwrapHighlight(diagram(s))))
    expect(new Set(keys).size).toBe(1)
    expect(keys[0]).not.toContain('▶')
    expect(keys[0]).not.toContain('255, 214, 102')
  })

  it('[highlight] finds the highlighted message by its marker, counting messages in drawing order', () => {
    expect([1, 2, 3, 4, 5].map((s) => highlightIndex(unwrapHighlight(diagram(s))))).toEqual([0, 1, 2, 3, 4])
    expect(highlightIndex(diagram(99))).toBe(-1)
  })

  it('[mermaid] recognises refused messages (-x) as messages', () => {
    const lines = messageLines(diagram(3))
    expect(lines).toHaveLength(5)
    expect(lines[3]).toMatchObject({ from: 'controller', to: 'policy_model' })
  })

  it('[fold] a folded phase becomes one note, the highlighted message stays', () => {
    const events = [1, 2, 3, 4, 5].map((step) => ({ step, phase: step <= 2 ? ('run' as const) : ('prepare' as const) }))
    const folded = collapsePhases(unwrapHighlight(diagram(4)), { from: 1, to: 5 }, events, new Set(['prepare']))
    const messages = messageLines(folded)
    expect(messages.map((m) => m.text)).toEqual(['run.dispatch r1', 'run.dispatch r2', '▶ model.pause ✗ stale_attempt'])
    expect(folded).toContain('prepare folded: 1 message (steps 3–3)')
    expect(folded).toContain('prepare folded: 1 message (steps 5–5)')
  })

  it('[fold] leaves the source alone when the message count does not match the window', () => {
    const source = diagram(1)
    expect(collapsePhases(source, { from: 1, to: 9 }, [], new Set(['run']))).toBe(source)
  })
})
