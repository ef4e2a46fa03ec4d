import { describe, expect, it } from 'vitest'
import { faultText } from './faultText.ts'

describe('fault chips', () => {
  it('[faults] say what each fault is, a rollout index named by its id when the fleet is known', () => {
    expect(faultText({ kind: 'straggler', rollout: 'r0', extra_ms: 500 })).toBe(
      'straggler r0 +500 ms',
    )
    expect(faultText({ kind: 'straggler', rollout: 0, extra_ms: 400 }, 9)).toBe(
      'straggler r0 +400 ms',
    )
    expect(faultText({ kind: 'straggler', rollout: 3, extra_ms: 1 }, 90)).toBe(
      'straggler r03 +1 ms',
    )
    expect(faultText({ kind: 'crash_after_write', k: 3 })).toBe('crash at write 3')
    expect(faultText({ kind: 'corrupt_file', namespace: 'resources', index: 2 })).toBe(
      'corrupt resources file 2',
    )
    expect(faultText({ kind: 'stale_request', rollout: 'r0', participant: 'policy_model' })).toBe(
      'stale request r0 → policy_model',
    )
  })
})
