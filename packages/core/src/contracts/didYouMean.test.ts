import { describe, expect, it } from 'vitest'
import { didYouMean, unknownNameMessage } from './didYouMean.ts'
import { SCENARIO_NAMES } from './scenarios.ts'
import { parseFaultsInput } from './parseFaultsInput.ts'

describe('did you mean', () => {
  it('[cli] names the nearest name for a typo, a prefix or another separator, and nothing for a stranger', () => {
    expect(didYouMean('hapy-path', SCENARIO_NAMES)).toBe('happy-path')
    expect(didYouMean('straggler', SCENARIO_NAMES)).toBe('straggler-retirement')
    expect(didYouMean('restore_race', SCENARIO_NAMES)).toBe('restore-race')
    expect(didYouMean('zzz', SCENARIO_NAMES)).toBeUndefined()
    expect(unknownNameMessage('scenario', 'zzz', ['a', 'b'])).toBe(
      "unknown scenario 'zzz' (one of a, b)",
    )
  })

  it('[cli] fault lists: an unknown kind or field names the nearest, malformed JSON its line and column', () => {
    expect(parseFaultsInput('[{"kind":"stragler","rollout":0,"extra_ms":1}]')).toMatchObject({
      ok: false,
      errors: [expect.stringContaining("did you mean 'straggler'?")],
    })
    const field = parseFaultsInput('[{"kind":"straggler","rollout":0,"extra_ms":1,"extra":1}]')
    expect(field.ok ? [] : field.errors.join()).toContain("'extra': did you mean 'extra_ms'?")
    const json = parseFaultsInput('[\n {"kind": "straggler",\n  rollout: 0}]')
    expect(json.ok ? '' : json.errors[0]).toMatch(/\(line 3, column 3\)$/)
  })
})
