/**
 * The environments Cutover models, in the order rollouts are dealt round-robin
 * (docs/protocol.md §12.1) and the resources server names of the simulated fleet
 * (docs/protocol.md §12.5). The one list; every place that walks the environments uses it.
 */
export const ENV_NAMES = ['blackjack', 'counter', 'workplace'] as const
export type EnvName = (typeof ENV_NAMES)[number]
