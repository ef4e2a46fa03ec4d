import { randomBytes } from 'node:crypto'
import type { Digest, EnvName, EnvironmentServer } from '@cutover/core'
import { ResourcesParticipant, createBlackjackServer, createCounterServer, createWorkplaceServer, parseWorkplaceBase } from '@cutover/core'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'

/** A fresh 128-bit seed from crypto: the reference's unseeded `random.Random()` draws from urandom. */
export const cryptoSeed = (): bigint => BigInt(`0x${randomBytes(16).toString('hex')}`)

/** The three environment servers, with the Workplace base tables parsed once from the vendored data. */
export function createEnvironmentServers(
  digest: Digest,
  seedForUnseededReset: () => bigint = cryptoSeed,
): { readonly [K in EnvName]: EnvironmentServer<unknown> } {
  return {
    blackjack: createBlackjackServer({ seedForUnseededReset }) as EnvironmentServer<unknown>,
    counter: createCounterServer() as EnvironmentServer<unknown>,
    workplace: createWorkplaceServer(parseWorkplaceBase(loadNodeWorkplaceData(), digest)) as EnvironmentServer<unknown>,
  }
}

/** One resources participant per environment, as a fresh server process holds them. */
export function createParticipants(
  digest: Digest,
  options: { readonly restoreExpected?: boolean; readonly seedForUnseededReset?: () => bigint; readonly only?: EnvName } = {},
): { [K in EnvName]?: ResourcesParticipant<unknown> } {
  const servers = createEnvironmentServers(digest, options.seedForUnseededReset)
  const out: { [K in EnvName]?: ResourcesParticipant<unknown> } = {}
  for (const env of ['blackjack', 'counter', 'workplace'] as const) {
    if (options.only !== undefined && options.only !== env) continue
    out[env] = new ResourcesParticipant(servers[env], digest, { restoreExpected: options.restoreExpected ?? false })
  }
  return out
}
