import type { ErrorCode } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { continuationRootsDigest, continuationRootsOf } from './continuationRoots.ts'
import { agentDir, agentManifestPath, ledgerManifestPath, resourcesManifestPath } from './layout.ts'
import type { LoadedAgentNamespace } from './loadAgentNamespace.ts'
import { loadAgentSteps } from './loadAgentNamespace.ts'
import type { LoadedLedgerNamespace } from './loadLedgerNamespace.ts'
import { loadLedgerSteps } from './loadLedgerNamespace.ts'
import type { LoadedResourcesNamespace } from './loadResourcesNamespace.ts'
import { loadResourcesSteps } from './loadResourcesNamespace.ts'
import type { ParticipantKind } from './manifests.ts'
import type { CheckpointProblem, NamespaceLoadError } from './problems.ts'
import { problem } from './problems.ts'
import { reconcileReplacementSet } from './reconcileReplacementSet.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'

/** A participant as far as the directory cares: which namespace it owns. */
export interface NamespaceOwner {
  readonly name: string
  readonly kind: ParticipantKind
}

/**
 * Every participant namespace loaded (the verified ones) plus every problem found, with its code.
 */
export interface LoadedNamespaces {
  readonly agent: LoadedAgentNamespace | undefined
  readonly ledgers: ReadonlyMap<string, LoadedLedgerNamespace>
  readonly resources: ReadonlyMap<string, LoadedResourcesNamespace>
  /** Each problem with the protocol code of the namespace it was found in. */
  readonly problems: readonly { readonly code: ErrorCode; readonly problem: CheckpointProblem }[]
  /** Path under D → verified SHA-256, for every file of every verified namespace. */
  readonly file_digests: Readonly<Record<string, string>>
}

/** The manifest path of a participant's namespace. */
export function namespaceManifestPath(owner: NamespaceOwner): string {
  switch (owner.kind) {
    case 'agent':
      return agentManifestPath()
    case 'policy_model':
      return ledgerManifestPath(owner.name)
    case 'resources':
      return resourcesManifestPath(owner.name)
  }
}

/**
 * Loads every participant's namespace from one view and cross-checks them: the agent ↔ resources
 * complete replacement set (docs/protocol.md §5.4), the agent's continuation roots against each
 * ledger's roots digest, and one checkpoint id throughout.
 */
export function loadParticipantNamespaces(
  view: DirectoryView,
  owners: readonly NamespaceOwner[],
  checkpoint_id: string | undefined,
): LoadedNamespaces {
  return runSteps(loadParticipantNamespaceSteps(view, owners, checkpoint_id))
}

/**
 * `loadParticipantNamespaces` one bounded batch of files at a time (`verifySteps`), namespace by
 * namespace.
 */
export function* loadParticipantNamespaceSteps(
  view: DirectoryView,
  owners: readonly NamespaceOwner[],
  checkpoint_id: string | undefined,
): VerifySteps<LoadedNamespaces> {
  const problems: { code: ErrorCode; problem: CheckpointProblem }[] = []
  const file_digests: Record<string, string> = {}
  let agent: LoadedAgentNamespace | undefined
  const ledgers = new Map<string, LoadedLedgerNamespace>()
  const resources = new Map<string, LoadedResourcesNamespace>()
  const note = (code: ErrorCode, found: readonly CheckpointProblem[]) => {
    for (const p of found) problems.push({ code, problem: p })
  }
  const sameCheckpoint = (code: ErrorCode, path: string, id: string) => {
    if (checkpoint_id !== undefined && id !== checkpoint_id) {
      note(code, [problem('incomplete_set', path, `holds checkpoint ${id}, not ${checkpoint_id}`)])
    }
  }
  /**
   * A verified namespace counts its files and must hold this checkpoint; a failed load counts its
   * problems.
   */
  const accept = <
    T extends {
      readonly file_digests: Readonly<Record<string, string>>
      readonly manifest: { readonly checkpoint_id: string }
    },
  >(
    loaded: Result<T, NamespaceLoadError>,
    code: ErrorCode,
    manifestPath: string,
  ): T | undefined => {
    if (!loaded.ok) {
      note(loaded.error.code, loaded.error.problems)
      return undefined
    }
    Object.assign(file_digests, loaded.value.file_digests)
    sameCheckpoint(code, manifestPath, loaded.value.manifest.checkpoint_id)
    return loaded.value
  }
  let agents = 0
  for (const owner of owners) {
    switch (owner.kind) {
      case 'agent': {
        agents++
        if (agents > 1) {
          note('agent_checkpoint_error', [
            problem('schema_error', agentDir(), 'agent schema 1 holds one agent instance'),
          ])
          break
        }
        agent = accept(yield* loadAgentSteps(view), 'agent_checkpoint_error', agentManifestPath())
        break
      }
      case 'policy_model': {
        const loaded = accept(
          yield* loadLedgerSteps(view, owner.name),
          'ledger_mismatch',
          ledgerManifestPath(owner.name),
        )
        if (loaded !== undefined) ledgers.set(owner.name, loaded)
        break
      }
      case 'resources': {
        const loaded = accept(
          yield* loadResourcesSteps(view, owner.name),
          'resources_checkpoint_error',
          resourcesManifestPath(owner.name),
        )
        if (loaded !== undefined) resources.set(owner.name, loaded)
        break
      }
    }
  }
  if (agent !== undefined) {
    for (const [name, loaded] of resources) {
      note(
        'resource_revision_mismatch',
        reconcileReplacementSet(name, loaded.snapshots, agent.records),
      )
    }
    // A boundary referencing a server whose namespace is absent is an incomplete set too.
    const resourceOwners = new Set(owners.filter((o) => o.kind === 'resources').map((o) => o.name))
    for (const record of agent.records) {
      for (const server of Object.keys(record.resource_state_revisions).sort()) {
        if (!resourceOwners.has(server)) {
          note('resource_revision_mismatch', [
            problem(
              'incomplete_set',
              resourcesManifestPath(server),
              `agent boundaries reference ${server} but it committed no snapshots`,
            ),
          ])
        }
      }
    }
    const rootsDigest = continuationRootsDigest(view.digest, continuationRootsOf(agent.records))
    for (const [name, ledger] of ledgers) {
      if (ledger.manifest.continuation_roots_sha256 !== rootsDigest) {
        note('ledger_mismatch', [
          problem(
            'incomplete_set',
            ledgerManifestPath(name),
            "continuation roots differ from the agent's boundary records",
          ),
        ])
      }
    }
  }
  return { agent, ledgers, resources, problems: dedupe(problems), file_digests }
}

function dedupe<T extends { problem: CheckpointProblem }>(items: T[]): T[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const key = `${item.problem.code}\u0000${item.problem.path ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
