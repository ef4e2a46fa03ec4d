import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { JsonValue } from '../json.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'

const N = 624
const M = 397
const MATRIX_A = 0x9908b0df
const UPPER_MASK = 0x80000000
const LOWER_MASK = 0x7fffffff

/** CPython's `random.getstate()` as JSON: `[3, [624 words..., index], null]`. */
export type PyRandomState = readonly [3, readonly number[], null]

/**
 * CPython's `random.Random`: MT19937 with CPython's integer seeding, `getrandbits(k <= 32)`,
 * `_randbelow` and `choice`. Same seed ⇒ the same draws as Python, and `getState()` is
 * interchangeable with Python's `getstate()`, so checkpoints cross languages.
 *
 * Mutable by design (it is a generator); callers that need copy-on-write take `clone()` first.
 */
export class PyRandom {
  private readonly mt: Uint32Array
  private mti: number

  private constructor(mt: Uint32Array, mti: number) {
    this.mt = mt
    this.mti = mti
  }

  /**
   * `random.Random(seed)` for a non-negative integer seed of any size (the sign is ignored, as in
   * CPython).
   */
  static fromSeed(seed: bigint): PyRandom {
    const rng = new PyRandom(new Uint32Array(N), N + 1)
    rng.initByArray(seedKey(seed))
    return rng
  }

  /** Rebuilds a generator from a `getState()` / Python `getstate()` value, validating its shape. */
  static fromState(state: unknown): Result<PyRandom, CutoverError> {
    const bad = (why: string) =>
      err(cutoverError('invalid_request', `invalid random state: ${why}`))
    if (!Array.isArray(state) || state.length !== 3)
      return bad('expected [3, [624 words, index], null]')
    if (state[0] !== 3) return bad(`unsupported version ${JSON.stringify(state[0])}`)
    if (state[2] !== null) return bad('gauss_next must be null')
    const internal: unknown = state[1]
    if (!Array.isArray(internal) || internal.length !== N + 1) return bad('expected 625 integers')
    const mt = new Uint32Array(N)
    for (let i = 0; i < N; i++) {
      const w: unknown = internal[i]
      if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w > 0xffffffff)
        return bad(`word ${i} is not a 32-bit unsigned integer`)
      mt[i] = w
    }
    const index: unknown = internal[N]
    // CPython's setstate accepts 0..624 for the index.
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > N)
      return bad('index must be an integer in 0..624')
    return ok(new PyRandom(mt, index))
  }

  /** An independent copy at the same position. */
  clone(): PyRandom {
    return new PyRandom(this.mt.slice(), this.mti)
  }

  /** `random.getstate()` in JSON form. */
  getState(): PyRandomState {
    const words: number[] = Array.from(this.mt)
    words.push(this.mti)
    return [3, words, null]
  }

  /** The JSON form of `getState()`, typed for snapshots. */
  getStateJson(): JsonValue {
    const [v, words, g] = this.getState()
    return [v, [...words], g]
  }

  /** `random.setstate(state)`: replaces this generator's position. */
  setState(state: unknown): Result<void, CutoverError> {
    const parsed = PyRandom.fromState(state)
    if (!parsed.ok) return parsed
    this.mt.set(parsed.value.mt)
    this.mti = parsed.value.mti
    return ok(undefined)
  }

  /** `getrandbits(k)` for 1 <= k <= 32: the top k bits of one MT output. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 32)
      throw new RangeError(`getrandbits supports 0 <= k <= 32, got ${k}`)
    if (k === 0) return 0
    return this.genrandUint32() >>> (32 - k)
  }

  /** `_randbelow(n)` for 1 <= n <= 2^32: rejection sampling over `n.bit_length()` bits. */
  randbelow(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 0x100000000)
      throw new RangeError(`randbelow supports 1 <= n <= 2^32, got ${n}`)
    const k = bitLength(n)
    let r = this.getrandbits(k)
    while (r >= n) r = this.getrandbits(k)
    return r
  }

  /** `choice(seq)`: `seq[_randbelow(len(seq))]`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new RangeError('Cannot choose from an empty sequence')
    return seq[this.randbelow(seq.length)] as T
  }

  /** `genrand_uint32()` from the reference MT19937. */
  private genrandUint32(): number {
    const mt = this.mt
    if (this.mti >= N) {
      let kk = 0
      for (; kk < N - M; kk++) {
        const y = ((mt[kk] as number) & UPPER_MASK) | ((mt[kk + 1] as number) & LOWER_MASK)
        mt[kk] = (mt[kk + M] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
      }
      for (; kk < N - 1; kk++) {
        const y = ((mt[kk] as number) & UPPER_MASK) | ((mt[kk + 1] as number) & LOWER_MASK)
        mt[kk] = (mt[kk + (M - N)] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
      }
      const y = ((mt[N - 1] as number) & UPPER_MASK) | ((mt[0] as number) & LOWER_MASK)
      mt[N - 1] = (mt[M - 1] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
      this.mti = 0
    }
    let y = mt[this.mti++] as number
    y ^= y >>> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >>> 18
    return y >>> 0
  }

  private initGenrand(s: number): void {
    const mt = this.mt
    mt[0] = s >>> 0
    for (let i = 1; i < N; i++) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30)
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0
    }
    this.mti = N
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt
    this.initGenrand(19650218)
    let i = 1
    let j = 0
    const keyLength = key.length
    for (let k = Math.max(N, keyLength); k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30)
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1664525)) + (key[j] as number) + j) >>> 0
      i++
      j++
      if (i >= N) {
        mt[0] = mt[N - 1] as number
        i = 1
      }
      if (j >= keyLength) j = 0
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30)
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1566083941)) - i) >>> 0
      i++
      if (i >= N) {
        mt[0] = mt[N - 1] as number
        i = 1
      }
    }
    mt[0] = 0x80000000
    this.mti = N
  }
}

/** CPython's seed key: the 32-bit little-endian limbs of abs(seed), `[0]` for 0. */
function seedKey(seed: bigint): number[] {
  let n = seed < 0n ? -seed : seed
  if (n === 0n) return [0]
  const key: number[] = []
  while (n > 0n) {
    key.push(Number(n & 0xffffffffn))
    n >>= 32n
  }
  return key
}

/** `int.bit_length()` for 0 <= n <= 2^32, exact (no floating-point logarithms). */
function bitLength(n: number): number {
  return n >= 0x100000000 ? 33 : 32 - Math.clz32(n)
}
