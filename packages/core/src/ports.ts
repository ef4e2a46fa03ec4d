/**
 * Ports: the only ways core reaches the world. Core never reads a clock, draws randomness, hashes
 * with a platform API or touches storage on its own; the edges inject these.
 */

/** SHA-256 as lower-case hex. Injected so core stays free of `node:crypto` and WebCrypto. */
export interface Digest {
  sha256Hex(data: Uint8Array | string): string
}

/**
 * A source of virtual or real milliseconds. The simulator's is virtual; traces never see wall time.
 */
export interface Clock {
  now(): number
}
