import { describe, expect, it } from 'vitest'
import type { TraceMessage } from './trace.ts'
import { corruptibleFiles, directoryWriteFaults } from './faultTargets.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import type { Fault } from './scenarios.ts'

const write = (step: number, path: string, checkpoint = 'ck', crashed = false): TraceMessage => ({
  step,
  time_ms: step,
  phase: 'commit',
  from: 'agent',
  to: 'directory',
  type: 'directory.write',
  payload: { checkpoint_id: checkpoint, path, bytes: 1, crashed },
  outcome: crashed ? 'internal_error' : 'ok',
})

const workplace = loadNodeWorkplaceData()
/** The scenario's preset faults, then `faults`. */
function simulate(
  scenario: 'happy-path' | 'generation-safe-cut',
  seed: string,
  faults: readonly Fault[],
) {
  const deps = {
    digest: nodeDigest,
    workplace,
    openDirectory: (id: string) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
  }
  const preset = resolveRunConfig({ scenario, seed })
  return runSimulation(
    resolveRunConfig({ scenario, seed, faults: [...preset.faults, ...faults] }),
    deps,
  )
}

describe('faults at a directory write', () => {
  it('[inject] data files of a namespace, sorted, manifests left out', () => {
    expect(
      corruptibleFiles(
        [
          'agent/r3.json',
          'agent/manifest.json',
          'resources/x/manifest.json',
          'agent/r1.json',
          'agent/r1.json',
        ],
        'agent',
      ),
    ).toEqual(['agent/r1.json', 'agent/r3.json'])
  })

  it('[inject] k counts every write of the run; the index counts the first checkpoint’s files; a later checkpoint is not corruptible', () => {
    const events = [
      write(1, 'agent/r3.json'),
      write(2, 'agent/manifest.json'),
      write(3, 'agent/r1.json'),
      write(4, 'agent/r2.json', 'ck2'),
      write(5, 'agent/r0.json', 'ck', true),
    ]
    expect(directoryWriteFaults(events, 1)).toEqual([
      { kind: 'crash_after_write', k: 1 },
      { kind: 'corrupt_file', namespace: 'agent', index: 1 },
    ])
    expect(directoryWriteFaults(events, 2)).toEqual([{ kind: 'crash_after_write', k: 2 }])
    expect(directoryWriteFaults(events, 3)).toEqual([
      { kind: 'crash_after_write', k: 3 },
      { kind: 'corrupt_file', namespace: 'agent', index: 0 },
    ])
    expect(directoryWriteFaults(events, 4)).toEqual([{ kind: 'crash_after_write', k: 4 }])
    expect(directoryWriteFaults(events, 5)).toEqual([{ kind: 'crash_after_write', k: 5 }])
    expect(directoryWriteFaults(events, 6)).toEqual([])
  })

  it('[inject] the faults offered at a write break that very write in the simulator: the crash hits its path, the flipped byte its file', () => {
    for (const seed of ['0', '3', '11']) {
      const events = simulate('happy-path', seed, []).events
      const writes = events.filter((e) => e.type === 'directory.write')
      // the first, a middle and the last write of a data file
      const picks = [...new Set([0, Math.floor(writes.length / 2), writes.length - 1])].map(
        (i) => writes[i] as TraceMessage,
      )
      for (const target of picks) {
        for (const fault of directoryWriteFaults(events, target.step)) {
          const rerun = simulate('happy-path', seed, [fault]).events
          if (fault.kind === 'crash_after_write') {
            expect(
              rerun.find((e) => e.type === 'directory.write' && e.payload['crashed'] === true)
                ?.payload['path'],
            ).toBe(target.payload['path'])
          } else {
            expect(rerun.find((e) => e.type === 'fault.corrupt_file')?.payload['path']).toBe(
              target.payload['path'],
            )
          }
        }
      }
    }
  })

  it('[inject] at a token-store segment write the offered corrupt_segment flips that very segment', () => {
    for (const seed of ['0', '7']) {
      const events = simulate('generation-safe-cut', seed, []).events
      const segments = events.filter(
        (e) =>
          e.type === 'directory.write' &&
          String(e.payload['path']).startsWith('token-store/segments/'),
      )
      expect(segments.length).toBeGreaterThan(0)
      for (const target of segments) {
        const fault = directoryWriteFaults(events, target.step).find(
          (f) => f.kind === 'corrupt_segment',
        )
        expect(fault).toBeDefined()
        const rerun = simulate('generation-safe-cut', seed, [fault as Fault]).events
        expect(rerun.find((e) => e.type === 'fault.corrupt_file')?.payload['path']).toBe(
          target.payload['path'],
        )
      }
    }
  })
})
