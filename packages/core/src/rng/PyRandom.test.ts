import { describe, expect, it } from 'vitest'
import { PyRandom } from './PyRandom.ts'
import vectors from './fixtures/cpython-random-vectors.json' with { type: 'json' }

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A']
const draws = (rng: PyRandom, n: number, f: (r: PyRandom) => unknown) =>
  Array.from({ length: n }, () => f(rng))

describe('PyRandom (CPython random.Random)', () => {
  it('[rng-seed] Random(0) getrandbits(32), getrandbits(4), choice and state match CPython', () => {
    expect(draws(PyRandom.fromSeed(0n), 5, (r) => r.getrandbits(32))).toEqual([
      3626764237, 1654615998, 3255389356, 3823568514, 1806341205,
    ])
    expect(draws(PyRandom.fromSeed(0n), 10, (r) => r.getrandbits(4))).toEqual([
      13, 6, 12, 14, 6, 0, 4, 15, 8, 7,
    ])
    expect(draws(PyRandom.fromSeed(0n), 20, (r) => r.choice(RANKS)).join(' ')).toBe(
      '8 A 8 2 6 10 9 8 A 6 9 7 J 5 10 4 6 4 A 3',
    )
    const state = PyRandom.fromSeed(0n).getState()
    expect(state[1].slice(0, 3)).toEqual([2147483648, 766982754, 497961170])
    expect(state[1][624]).toBe(624)
    expect(state[0]).toBe(3)
    expect(state[2]).toBeNull()
  })

  it('[rng-seed] Random(1) and Random(42) match CPython', () => {
    expect(draws(PyRandom.fromSeed(1n), 20, (r) => r.choice(RANKS)).join(' ')).toBe(
      '4 J A A 3 6 3 9 A 9 9 Q 8 A 5 3 9 2 8 8',
    )
    expect(draws(PyRandom.fromSeed(1n), 5, (r) => r.getrandbits(32))).toEqual([
      577090037, 2444712010, 3639700191, 3445702192, 3280387012,
    ])
    expect(draws(PyRandom.fromSeed(42n), 20, (r) => r.choice(RANKS)).join(' ')).toBe(
      'Q 3 2 K 6 5 5 4 K 3 Q K 10 3 J 8 2 2 3 5',
    )
    expect(draws(PyRandom.fromSeed(42n), 5, (r) => r.getrandbits(32))).toEqual([
      2746317213, 478163327, 107420369, 3184935163, 1181241943,
    ])
  })

  it('[rng-seed] a multi-limb seed is init_by_array over its 32-bit little-endian limbs', () => {
    const seed = (0x456n << 96n) | (0x345n << 64n) | (0x234n << 32n) | 0x123n
    expect(draws(PyRandom.fromSeed(seed), 5, (r) => r.getrandbits(32))).toEqual([
      1067595299, 955945823, 477289528, 4107218783, 4228976476,
    ])
  })

  describe.each(vectors.seeds)('[rng-fixture] CPython vectors for seed $seed', (v) => {
    const seed = BigInt(v.seed)
    it('getrandbits, _randbelow and choice match', () => {
      expect(
        draws(PyRandom.fromSeed(seed), v.getrandbits32.length, (r) => r.getrandbits(32)),
      ).toEqual(v.getrandbits32)
      const bits = PyRandom.fromSeed(seed)
      expect(v.getrandbits.map(([k]) => [k, bits.getrandbits(k as number)])).toEqual(v.getrandbits)
      const below = PyRandom.fromSeed(seed)
      expect(v.randbelow.map(([n]) => [n, below.randbelow(n as number)])).toEqual(v.randbelow)
      expect(draws(PyRandom.fromSeed(seed), v.choice_ranks.length, (r) => r.choice(RANKS))).toEqual(
        v.choice_ranks,
      )
    })
    it('getState after N draws equals Python getstate(), and setState resumes identically', () => {
      for (const s of v.states) {
        const rng = PyRandom.fromSeed(seed)
        for (let i = 0; i < s.draws; i++) rng.getrandbits(32)
        expect(rng.getState()).toEqual(s.state)
        const restored = PyRandom.fromState(JSON.parse(JSON.stringify(s.state)))
        expect(restored.ok).toBe(true)
        if (restored.ok) expect(restored.value.getrandbits(32)).toBe(s.next)
        const other = PyRandom.fromSeed(12345n)
        expect(other.setState(s.state).ok).toBe(true)
        expect(other.getrandbits(32)).toBe(s.next)
      }
    })
  })

  it('[rng-state] clone is independent of the original', () => {
    const a = PyRandom.fromSeed(7n)
    const b = a.clone()
    const fromA = draws(a, 3, (r) => r.getrandbits(32))
    expect(draws(b, 3, (r) => r.getrandbits(32))).toEqual(fromA)
    expect(a.getState()).toEqual(b.getState())
  })

  it('[rng-state] rejects malformed states without changing the generator', () => {
    const rng = PyRandom.fromSeed(0n)
    const before = rng.getState()
    const words = [...before[1]]
    for (const bad of [
      null,
      [2, words, null],
      [3, words.slice(1), null],
      [3, words, 0.5],
      [3, [...words.slice(0, 624), 625], null],
      [3, [-1, ...words.slice(1)], null],
    ]) {
      const r = rng.setState(bad)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error.code).toBe('invalid_request')
    }
    expect(rng.getState()).toEqual(before)
  })
})
