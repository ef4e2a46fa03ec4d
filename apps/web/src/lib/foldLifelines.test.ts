import { describe, expect, it } from 'vitest'
import { declaredLifelines, foldLifelines } from './foldLifelines.ts'

const SOURCE = [
  'sequenceDiagram',
  'participant controller',
  'participant agent',
  'participant resources_counter',
  'participant directory',
  'Note over controller,directory: run',
  'controller->>agent: run.dispatch r0.a0',
  'agent->>resources_counter: env.start r0.a0',
  'resources_counter->>directory: directory.write',
  'agent-xresources_counter: env.request ✗ stale_attempt',
  'Note left of directory: a note',
  '',
].join('\n')

describe('folding lifelines', () => {
  it('[diagram-fit] hidden lifelines fold into one "others" lifeline; every message is kept, in order', () => {
    const folded = foldLifelines(SOURCE, new Set(['resources_counter', 'directory']))
    expect(declaredLifelines(folded).map((l) => l.id)).toEqual(['controller', 'agent', 'others'])
    expect(declaredLifelines(folded)[2]?.label).toBe('2 others')
    const messages = folded.split('\n').filter((l) => /: /.test(l) && !l.startsWith('Note'))
    expect(messages).toEqual([
      'controller->>agent: run.dispatch r0.a0',
      'agent->>others: env.start r0.a0',
      'others->>others: directory.write',
      'agent-xothers: env.request ✗ stale_attempt',
    ])
    expect(folded).toContain('Note over controller,others: run')
    expect(folded).toContain('Note left of others: a note')
  })

  it('[diagram-fit] nothing hidden (or nothing the source declares) leaves the source as it is', () => {
    expect(foldLifelines(SOURCE, new Set())).toBe(SOURCE)
    expect(foldLifelines(SOURCE, new Set(['token_store']))).toBe(SOURCE)
  })
})
