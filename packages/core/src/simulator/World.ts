import type { BugName } from '../contracts/bugs.ts'
import { ENV_NAMES } from '../contracts/environments.ts'
import { createBlackjackServer } from '../environments/blackjack/blackjackServer.ts'
import { createCounterServer } from '../environments/counter/counterServer.ts'
import type { EnvironmentServer } from '../environments/EnvironmentServer.ts'
import type { EnvName } from '../contracts/environments.ts'
import type { Digest } from '../ports.ts'
import { AgentParticipant } from '../protocol/AgentParticipant.ts'
import { PolicyModel } from '../protocol/PolicyModel.ts'
import type { TokenReader } from '../protocol/GenerationCuts.ts'
import { ResourcesParticipant } from '../protocol/ResourcesParticipant.ts'

/**
 * A resources participant with its session type erased (the simulator treats sessions as opaque).
 */
export type AnyResources = ResourcesParticipant<unknown>

/** One generation of server processes: what restore replaces with fresh instances. */
export interface World {
  /** 0 for the original processes, 1.. for each replacement. */
  readonly generation: number
  readonly model: PolicyModel
  readonly agent: AgentParticipant
  readonly resources: { readonly [K in EnvName]: AnyResources }
}

/** Builds the three environment servers; Workplace needs its data (a port), others are pure. */
export type EnvFactory = (name: EnvName) => EnvironmentServer<unknown>

/** The default factory: Blackjack and the counter; Workplace supplied by the caller. */
export function defaultEnvFactory(
  workplace: (() => EnvironmentServer<unknown>) | undefined,
): EnvFactory {
  return (name) => {
    switch (name) {
      case 'blackjack':
        // Every simulated reset carries its seed; an unseeded one would be a bug in the workload.
        return createBlackjackServer({
          seedForUnseededReset: () => 0n,
        }) as unknown as EnvironmentServer<unknown>
      case 'counter':
        return createCounterServer() as unknown as EnvironmentServer<unknown>
      case 'workplace':
        // Without Workplace data no rollout is dealt to it (fewer than 3 rollouts): an empty
        // counter-shaped server keeps the participant set fixed and is never called.
        return workplace === undefined
          ? (createCounterServer() as unknown as EnvironmentServer<unknown>)
          : workplace()
    }
  }
}

/** Fresh participant instances (a new process each). */
export function createWorld(
  generation: number,
  digest: Digest,
  envs: EnvFactory,
  workers: number,
  bug?: BugName,
  tokenStore?: TokenReader,
): World {
  const mk = (name: EnvName): AnyResources =>
    new ResourcesParticipant(envs(name), digest, { serverName: name })
  return {
    generation,
    model: new PolicyModel(digest, {
      serverName: 'policy',
      workers,
      generation: bug === 'call-ids-reused' ? 0 : generation,
      relayTwice: bug === 'relay-applied-twice',
      skipRestoreFences: bug === 'tombstones-skipped-on-restore',
      unfencedEgress: bug === 'egress-unfenced',
      ...(tokenStore === undefined ? {} : { tokenStore }),
    }),
    agent: new AgentParticipant(digest, 'agent'),
    resources: Object.fromEntries(ENV_NAMES.map((name) => [name, mk(name)])) as {
      [K in EnvName]: AnyResources
    },
  }
}
