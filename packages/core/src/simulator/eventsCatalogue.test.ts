import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TRACE_EVENT_TYPES } from '../contracts/trace.ts'

/** The event types EVENTS.md's tables list (the first cell of each row, every backticked name). */
function catalogued(markdown: string): string[] {
  const types: string[] = []
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| `')) continue
    const first = line.split('|')[1] ?? ''
    for (const m of first.matchAll(/`([^`]+)`/g)) types.push(m[1] as string)
  }
  return types
}

describe('EVENTS.md', () => {
  it('[events] the prose catalogue lists exactly the event types of contracts/trace.ts, each once', () => {
    const listed = catalogued(readFileSync(new URL('./EVENTS.md', import.meta.url), 'utf8'))
    expect([...listed].sort()).toEqual([...TRACE_EVENT_TYPES].sort())
  })
})
