import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'

/**
 * The fixed layout of a checkpoint directory D (docs/protocol.md §12.5). Every path is relative to
 * D and `/`-separated; these builders are the only place a path is spelled.
 */

export const MODEL_LEDGER_DIR = 'model-ledger'
export const AGENT_DIR = 'agent'
export const RESOURCES_DIR = 'resources'
export const TOKEN_STORE_DIR = 'token-store'
/** The three participant namespaces the aggregate's `files` map covers. */
export const PARTICIPANT_NAMESPACES = [MODEL_LEDGER_DIR, AGENT_DIR, RESOURCES_DIR] as const

export const MANIFEST_FILE = 'manifest.json'
export const AGGREGATE_MANIFEST_PATH = 'nemo_gym_checkpoint_manifest.json'
export const TOKEN_STORE_MANIFEST_PATH = `${TOKEN_STORE_DIR}/${MANIFEST_FILE}`
export const CHECKPOINT_MARKER_PATH = 'checkpoint.json'
/**
 * Token-store segments of generation-safe cuts (docs/protocol.md §11), written before the
 * token-store manifest.
 */
export const TOKEN_SEGMENTS_DIR = `${TOKEN_STORE_DIR}/segments`
/** `token-store/segments/<model_call_id>.seg-<n>.json`: a JSON array of token ids. */
export const tokenSegmentPath = (modelCallId: string, segment: number): string =>
  `${TOKEN_SEGMENTS_DIR}/${modelCallId}.seg-${segment}.json`

/** Top-level names of which a checkpoint directory holds at least one, even when damaged. */
export const CHECKPOINT_TOP_LEVEL: readonly string[] = [
  CHECKPOINT_MARKER_PATH,
  AGGREGATE_MANIFEST_PATH,
  AGENT_DIR,
  MODEL_LEDGER_DIR,
  RESOURCES_DIR,
  TOKEN_STORE_DIR,
]

/**
 * Why a directory holding `names` at its top is not a checkpoint directory (none of
 * `CHECKPOINT_TOP_LEVEL`), or null when it is one, however damaged. `cutover verify`, `cutover
 * inspect` and the directory runs tell a checkpoint from any other folder by this one rule (verify
 * alone, asked about one folder, reads an empty one as a checkpoint torn before its first write).
 */
export function notACheckpointReason(names: readonly string[]): string | null {
  return names.some((name) => CHECKPOINT_TOP_LEVEL.includes(name))
    ? null
    : `it holds none of ${CHECKPOINT_TOP_LEVEL.map((n) => (n.includes('.') ? n : `${n}/`)).join(', ')}`
}

export const LEDGER_SCHEMA_VERSION = 2
export const AGENT_SCHEMA_VERSION = 1
export const RESOURCES_MANIFEST_SCHEMA_VERSION = 1
export const AGGREGATE_SCHEMA_VERSION = 1
export const TOKEN_STORE_SCHEMA_VERSION = 1
export const MARKER_SCHEMA_VERSION = 1

/**
 * The policy model's server name (docs/protocol.md §12.5); the resources servers are named by
 * `ENV_NAMES`.
 */
export const POLICY_SERVER_NAME = 'policy'

/**
 * `<rollout_id>.a<attempt>.json`: the file of one execution in the agent and resources namespaces.
 */
export const executionFileName = (id: ExecutionIdentity): string => `${executionKey(id)}.json`
export const lineageFileName = (capture: string): string => `${capture}.lineage.jsonl`

export const ledgerDir = (server: string): string => `${MODEL_LEDGER_DIR}/${server}`
export const ledgerManifestPath = (server: string): string =>
  `${ledgerDir(server)}/${MANIFEST_FILE}`
export const ledgerLineagePath = (server: string, capture: string): string =>
  `${ledgerDir(server)}/${lineageFileName(capture)}`

export const agentDir = (): string => AGENT_DIR
export const agentManifestPath = (): string => `${AGENT_DIR}/${MANIFEST_FILE}`
export const agentRecordPath = (id: ExecutionIdentity): string =>
  `${AGENT_DIR}/${executionFileName(id)}`

export const resourcesDir = (server: string): string => `${RESOURCES_DIR}/${server}`
export const resourcesManifestPath = (server: string): string =>
  `${resourcesDir(server)}/${MANIFEST_FILE}`
export const resourcesSnapshotPath = (server: string, id: ExecutionIdentity): string =>
  `${resourcesDir(server)}/${executionFileName(id)}`
