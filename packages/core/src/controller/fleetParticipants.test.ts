import { describe, expect, it } from 'vitest'
import { AGGREGATE_MANIFEST_PATH } from '../directory/layout.ts'
import type { AggregateManifest } from '../directory/manifests.ts'
import { runScenarioInMemory } from '../testing/runScenarioInMemory.ts'
import { decodeUtf8 } from '../utf8.ts'

describe('the aggregate manifest names participants as the real controller does', () => {
  it("[wire.aggregate-participant-id] participant_id is the server's name and results are keyed <operation>:<name>", () => {
    const { dirs } = runScenarioInMemory('happy-path', '3')
    const dir = dirs.get('ck-1')
    const bytes = dir?.readFile(AGGREGATE_MANIFEST_PATH)
    if (bytes === undefined) throw new Error('no aggregate published')
    const manifest = JSON.parse(decodeUtf8(bytes) ?? '') as AggregateManifest
    expect(manifest.participants.map((p) => [p.participant_id, p.name, p.kind])).toEqual([
      ['agent', 'agent', 'agent'],
      ['blackjack', 'blackjack', 'resources'],
      ['counter', 'counter', 'resources'],
      ['policy', 'policy', 'policy_model'],
      ['workplace', 'workplace', 'resources'],
    ])
    expect(Object.keys(manifest.participant_results).sort()).toEqual([
      'commit:agent',
      'commit:blackjack',
      'commit:counter',
      'commit:policy',
      'commit:workplace',
      'prepare:blackjack',
      'prepare:counter',
      'prepare:workplace',
    ])
  })
})
