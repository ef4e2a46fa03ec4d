import { describe, expect, it } from 'vitest'
import { resourceSnapshotSchema } from '@cutover/core'
import { runEnvCommand } from './envCommand.ts'

function run(argv: string[], files: Record<string, string> = {}) {
  let out = ''
  let err = ''
  const code = runEnvCommand(argv, {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readFile: (p) => {
      const f = files[p]
      if (f === undefined) throw new Error(`ENOENT: no such file '${p}'`)
      return f
    },
  })
  return { code, out, err }
}
const json = (argv: string[], files?: Record<string, string>) => {
  const r = run([...argv, '--json'], files)
  expect(r.code).toBe(0)
  expect(r.out.trim().split('\n')).toHaveLength(1)
  return JSON.parse(r.out) as Record<string, unknown>
}

describe('[cli-env] cutover env', () => {
  it('blackjack --seed 0 stand: win against [8, 2, 6, 10], no snapshot', () => {
    const r = json(['blackjack', '--seed', '0', '--actions', 'stand'])
    expect(r).toEqual({
      observations: [
        'Your hand: [8, A] = 19\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
      ],
      player: ['8', 'A'],
      dealer: ['8', '2', '6', '10'],
      result: {
        reward: 1,
        terminated: true,
        truncated: false,
        info: {
          result: 'win',
          player: '[8, A]',
          player_value: 19,
          dealer: '[8, 2, 6, 10]',
          dealer_value: 26,
        },
      },
      snapshot: null,
    })
  })

  it('blackjack with a hand in progress prints a ResourceSnapshot with the CPython RNG state', () => {
    const r = json(['blackjack', '--seed', '0', '--actions', 'hit'])
    expect(r['result']).toBeNull()
    expect(r['player']).toEqual(['8', 'A', '6'])
    expect(r['observations']).toEqual([
      'Your hand: [8, A] = 19\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
      'Your hand: [8, A, 6] = 15\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
    ])
    const snap = resourceSnapshotSchema.parse(r['snapshot'])
    expect(snap.state_revision).toBe(1)
    const state = snap.state as {
      rng_state: [number, number[], null]
      player: string[]
      dealer: string[]
    }
    expect(state.rng_state[0]).toBe(3)
    expect(state.rng_state[1]).toHaveLength(625)
    expect(state.player).toEqual(['8', 'A', '6'])
    expect(state.dealer).toEqual(['8', '2'])
    const big = json(['blackjack', '--seed', '1180591620717411303435'])
    expect(big['observations']).toHaveLength(1)
    const reset = json(['blackjack', '--seed', '0'])
    expect(resourceSnapshotSchema.parse(reset['snapshot']).state).toMatchObject({
      player: ['8', 'A'],
      dealer: ['8', '2'],
    })
  })

  it('blackjack usage errors exit 2 with one stderr line', () => {
    for (const argv of [
      ['blackjack'],
      ['blackjack', '--seed', '-1'],
      ['blackjack', '--seed', '0', '--actions', 'fold'],
      ['blackjack', '--seed', '0', '--actions', 'stand,hit'],
      ['blackjack', '--seed', '0', '--bogus'],
      ['nope'],
    ]) {
      const r = run(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1)
      expect(r.out).toBe('')
    }
  })

  it('counter: count and snapshot; human output otherwise', () => {
    expect(json(['counter', '--initial', '3', '--increments', '1,2,-1'])).toMatchObject({
      count: 5,
      snapshot: { schema_version: 2, state: { counter: 5 }, state_revision: 3 },
    })
    expect(run(['counter', '--initial', '3']).out).toBe('count 3\n')
    expect(run(['counter', '--initial', 'x']).code).toBe(2)
    expect(run(['counter']).code).toBe(2)
  })

  it('workplace: outputs, 7 split tables, delta snapshot and reward', () => {
    const calls = JSON.stringify([
      {
        name: 'email_reply_email',
        arguments: JSON.stringify({
          email_id: '00000057',
          body: 'Thanks for the update - I will get back to you tomorrow.',
        }),
      },
      { name: 'nope', arguments: '{}' },
    ])
    const gt = JSON.stringify([
      {
        name: 'email_reply_email',
        arguments: JSON.stringify({
          email_id: '00000057',
          body: 'Thanks for the update - I will get back to you tomorrow.',
        }),
      },
    ])
    const r = json(['workplace', '--calls', 'c.json', '--ground-truth', 'g.json'], {
      'c.json': calls,
      'g.json': gt,
    })
    expect(r['outputs']).toEqual([
      'Email replied successfully.',
      "Error executing tool 'nope': 'nope'",
    ])
    const tables = r['tables'] as Record<
      string,
      { columns: string[]; index: number[]; data: unknown[][] }
    >
    expect(Object.keys(tables)).toEqual([
      'emails',
      'calendar_events',
      'analytics_data',
      'plots_data',
      'project_tasks',
      'crm_data',
      'email_addresses',
    ])
    expect(tables['emails']?.index.at(-1)).toBe(500)
    expect(tables['emails']?.data.at(-1)).toEqual([
      '500',
      'outbox',
      'carlos.rodriguez@atlas.com',
      'RE: Task Update on Develop prototype for report generation',
      '2023-11-30 23:59:00',
      'Thanks for the update - I will get back to you tomorrow.',
    ])
    expect(resourceSnapshotSchema.parse(r['snapshot']).state).toMatchObject({ form: 'delta' })
    expect(r['reward']).toBe(1)
    expect(run(['workplace', '--calls', 'c.json'], { 'c.json': calls }).out).toContain(
      '1. email_reply_email: Email replied successfully.',
    )
  })

  it('workplace input errors exit 2', () => {
    for (const files of <Record<string, string>[]>[
      {},
      { 'c.json': '{' },
      { 'c.json': '{}' },
      { 'c.json': '[{"name":1}]' },
      { 'c.json': '[{"name":"x","arguments":"{"}]' },
    ]) {
      const r = run(['workplace', '--calls', 'c.json'], files)
      expect(r.code).toBe(2)
      expect(r.err.trim().split('\n')).toHaveLength(1)
    }
    expect(run(['workplace']).code).toBe(2)
  })

  it('--help prints the usage and exits 0', () => {
    const r = run(['blackjack', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('usage: cutover env blackjack')
  })
})
