import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadNodeWorkplaceData, WORKPLACE_VENDOR_DIR } from '../../adapters/nodeWorkplaceData.ts'
import type { JsonValue } from '../../json.ts'
import { canonicalJson } from '../../json.ts'
import { routeToolCall } from './routeToolCall.ts'
import { toSplit } from './splitTable.ts'
import { parseWorkplaceBase } from './WorkplaceData.ts'
import { ALL_TABLES, freshSession, sessionTables } from './WorkplaceSession.ts'
import { verifyWorkplace } from './verifyWorkplace.ts'

const digest = {
  sha256Hex: (d: Uint8Array | string) => createHash('sha256').update(d).digest('hex'),
}
const base = parseWorkplaceBase(loadNodeWorkplaceData(), digest)

interface Call {
  name: string
  arguments: string
}
interface RefCase {
  id: string
  calls: Call[]
  outputs: { kind: 'value' | 'exception'; value: JsonValue }[]
  tables: Record<string, { sha256: string; rows: number; index_tail: number[] }>
}
const fixture = JSON.parse(readFileSync(`${WORKPLACE_VENDOR_DIR}reference/cases.json`, 'utf8')) as {
  cases: RefCase[]
  verify: { predicted: JsonValue; ground_truth: JsonValue; reward: number }[]
}

/**
 * Outputs as plain JSON (Python floats read as numbers, as the recorded cases hold them); email
 * search results may order tied sent_datetime rows differently: compare them tie-insensitively.
 */
function normaliseOutput(name: string, output: JsonValue): JsonValue {
  const v = JSON.parse(JSON.stringify(output)) as JsonValue
  if (
    name !== 'email_search_emails' ||
    v === null ||
    typeof v !== 'object' ||
    Array.isArray(v) ||
    !Array.isArray(v['emails'])
  )
    return v
  const emails = [...(v['emails'] as JsonValue[])].sort((a, b) =>
    canonicalJson(a).localeCompare(canonicalJson(b)),
  )
  return { ...v, emails }
}

describe('[wa-reference] every reference case reproduces outputs and table digests', () => {
  it.each(fixture.cases)('$id', (c) => {
    let session = freshSession(base)
    c.calls.forEach((call, j) => {
      const r = routeToolCall(
        base,
        session,
        call.name,
        JSON.parse(call.arguments) as Record<string, JsonValue>,
      )
      session = r.session
      const expected = c.outputs[j]
      if (expected?.kind === 'exception') {
        expect(String(r.output)).toMatch(new RegExp(`^Error executing tool '${call.name}':`))
      } else {
        expect(
          normaliseOutput(call.name, r.output),
          `call ${j} ${call.name} ${call.arguments}`,
        ).toEqual(normaliseOutput(call.name, expected?.value ?? null))
      }
    })
    const tables = sessionTables(base, session)
    for (const name of ALL_TABLES) {
      const t = tables[name]
      expect(t.rows.length, name).toBe(c.tables[name]?.rows)
      expect(t.labels.slice(-3), name).toEqual(c.tables[name]?.index_tail)
      expect(digest.sha256Hex(canonicalJson(toSplit(t))), name).toBe(c.tables[name]?.sha256)
    }
  })
})

describe('[wa-verify] every reference verify case reproduces its reward', () => {
  it.each(fixture.verify.map((v, i) => ({ ...v, i })))('verify case $i', (v) => {
    expect(verifyWorkplace(base, v.predicted, v.ground_truth)).toBe(v.reward)
  })
})

describe('[wa-examples] example tasks', () => {
  it('has the 5 example tasks and the 27 tool schemas', () => {
    expect(base.examples).toHaveLength(5)
    expect(base.toolSchemas).toHaveLength(27)
  })
  it.each(base.examples.map((e) => ({ id: e.id, gt: e.ground_truth })))(
    'task $id: ground truth verifies to 1 against itself, [] to 0',
    ({ gt }) => {
      expect(verifyWorkplace(base, gt, gt)).toBe(1)
      expect(verifyWorkplace(base, [], gt)).toBe(0)
    },
  )
})
