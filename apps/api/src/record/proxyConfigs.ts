import type { RecordingProxyView } from '@cutover/core/contracts'

/** A name's role in a fleet file: `policy` the model, `agent` the agent, the rest resources. */
export const roleOfProxy = (name: string): 'model' | 'agent' | 'resources' =>
  name === 'policy' || name === 'policy_model' ? 'model' : name === 'agent' ? 'agent' : 'resources'

/**
 * The fleet file (docs/fleet.md) of the proxies, for `cutover checkpoint --fleet`: `policy` under
 * `model`, `agent` under `agent`, every other name under `resources`.
 */
export function proxyFleetFile(proxies: readonly RecordingProxyView[]): {
  model: string[]
  agent: string[]
  resources: { [name: string]: string }
} {
  const file = {
    model: [] as string[],
    agent: [] as string[],
    resources: {} as { [n: string]: string },
  }
  for (const p of proxies) {
    const role = roleOfProxy(p.name)
    if (role === 'model') file.model.push(p.url)
    else if (role === 'agent') file.agent.push(p.url)
    else file.resources[p.name.replace(/^resources_/, '')] = p.url
  }
  return file
}

const COMPONENT = {
  model: 'responses_api_models',
  agent: 'responses_api_agents',
  resources: 'resources_servers',
} as const

/**
 * The NeMo Gym global-config entries of the proxies, for NeMo-RL's checkpoint controller: one
 * top-level entry per server, named as the server names itself in its capabilities (the
 * controller checks that the configured name is the served one), holding its component key
 * (`responses_api_models`, `responses_api_agents`, `resources_servers`) with one implementation
 * entry whose `host` and `port` are the proxy's. JSON, so it is YAML too.
 */
export function proxyGymConfig(proxies: readonly RecordingProxyView[]): {
  [server: string]: { [component: string]: { [impl: string]: { host: string; port: number } } }
} {
  const config: {
    [server: string]: { [component: string]: { [impl: string]: { host: string; port: number } } }
  } = {}
  for (const p of proxies) {
    const url = new URL(p.url)
    const role = roleOfProxy(p.name)
    config[p.name] = {
      [COMPONENT[role]]: {
        [role === 'resources' ? p.name : `cutover_${role}`]: {
          host: url.hostname,
          port: Number(url.port),
        },
      },
    }
  }
  return config
}
