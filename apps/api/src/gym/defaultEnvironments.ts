import { randomBytes } from 'node:crypto'
import type { Digest, EnvName, EnvironmentServer } from '@cutover/core'
import {
  ENV_NAMES,
  ResourcesParticipant,
  createBlackjackServer,
  createCounterServer,
  createWorkplaceServer,
  parseWorkplaceBase,
} from '@cutover/core'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'

/**
 * A fresh 128-bit seed from crypto: the reference's unseeded `random.Random()` draws from urandom.
 */
export const cryptoSeed = (): bigint => BigInt(`0x${randomBytes(16).toString('hex')}`)

/** Builds one environment server; Workplace parses its base tables from the vendored data. */
export function createEnvironmentServer(
  env: EnvName,
  digest: Digest,
  seedForUnseededReset: () => bigint = cryptoSeed,
): EnvironmentServer<unknown> {
  switch (env) {
    case 'blackjack':
      return createBlackjackServer({ seedForUnseededReset }) as EnvironmentServer<unknown>
    case 'counter':
      return createCounterServer() as EnvironmentServer<unknown>
    case 'workplace':
      return createWorkplaceServer(
        parseWorkplaceBase(loadNodeWorkplaceData(), digest),
      ) as EnvironmentServer<unknown>
  }
}

/** The three environment servers. */
export function createEnvironmentServers(
  digest: Digest,
  seedForUnseededReset: () => bigint = cryptoSeed,
): { readonly [K in EnvName]: EnvironmentServer<unknown> } {
  return {
    blackjack: createEnvironmentServer('blackjack', digest, seedForUnseededReset),
    counter: createEnvironmentServer('counter', digest, seedForUnseededReset),
    workplace: createEnvironmentServer('workplace', digest, seedForUnseededReset),
  }
}

/**
 * One resources participant per environment (or just `only`), as a fresh server process holds them.
 */
export function createParticipants(
  digest: Digest,
  options: {
    readonly restoreExpected?: boolean
    readonly seedForUnseededReset?: () => bigint
    readonly only?: EnvName
  } = {},
): { [K in EnvName]?: ResourcesParticipant<unknown> } {
  const out: { [K in EnvName]?: ResourcesParticipant<unknown> } = {}
  for (const env of ENV_NAMES) {
    if (options.only !== undefined && options.only !== env) continue
    const server = createEnvironmentServer(env, digest, options.seedForUnseededReset)
    out[env] = new ResourcesParticipant(server, digest, {
      restoreExpected: options.restoreExpected ?? false,
    })
  }
  return out
}
