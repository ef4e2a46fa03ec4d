import type { BugInfo, BugName } from '../contracts/bugs.ts'

/** The teaching-mode catalogue: each bug, what it does, and the invariant that catches it. */
export const BUG_CATALOGUE: readonly BugInfo[] = [
  {
    name: 'resume-agents-first',
    narrative:
      'The controller resumes the agent before the policy model and the resources servers, so a continued rollout can call a dependency that is still paused.',
    invariant: 'resume-order',
  },
  {
    name: 'aggregate-before-resources',
    narrative:
      'The controller publishes the aggregate manifest before the resources servers commit, so the aggregate vouches for files that do not exist yet.',
    invariant: 'manifest-last',
  },
  {
    name: 'acks-after-prepare',
    narrative:
      'The controller holds completed results back until the checkpoint and sends their acknowledgements after asking the agents to prepare, so the agents prepare while terminal results are still unreleased instead of the prepare being refused.',
    invariant: 'acks-before-prepare',
  },
  {
    name: 'tombstones-skipped-on-restore',
    narrative:
      'The restored policy model ignores the checkpoint’s tombstones and source attempts, so a delayed attempt-0 request from a continued rollout is served after restore.',
    invariant: 'fenced-attempt-silent',
  },
  {
    name: 'relay-applied-twice',
    narrative:
      'The restored policy model never consumes the restored-parent relay, so the second call of attempt N+1 links to attempt N’s boundary again.',
    invariant: 'relay-once',
  },
  {
    name: 'call-ids-reused',
    narrative:
      'The restored policy model starts its call-id counter again, so its first calls reuse the ids of attempt 0’s calls and lineage mixes rollouts.',
    invariant: 'call-id-unique',
  },
  {
    name: 'ack-before-durable',
    narrative:
      'The generation worker acknowledges a cut prefix as durable_prefix as soon as it asks the token store to stage it, before the store reports the segment durable, so the cut proof vouches for tokens a crash could still lose (any generation-safe scenario with a cut, e.g. generation-safe-cut).',
    invariant: 'durable-before-ack',
    // Every seed of these (the straggler's prefix is staged); none of the others cuts a durable
    // prefix.
    scenarios: [
      'generation-safe-cut',
      'completed-before-egress',
      'corrupt-prefix-segment',
      'cut-restore-race',
      'straggler-retirement',
    ],
  },
  {
    name: 'egress-unfenced',
    narrative:
      'The policy model never fences response egress at the cut, so a call that finishes while the checkpoint is being taken delivers its response to the agent before the checkpoint’s disposition is known. Only completed-before-egress shows it, and only on the seeds where r0’s frozen call finishes while the fence is up (about 4 in 10; seed 0 is one): on the others, and in every other scenario, no frozen call finishes before the commit, so there is no early response to catch and egress-fenced passes.',
    invariant: 'egress-fenced',
    scenarios: ['completed-before-egress'],
  },
  {
    name: 'overlapping-cut-buffers',
    narrative:
      'The generation worker swaps buffers one token late: the token at the cut boundary stays in the new active buffer as well as in the frozen prefix, so the continued call repeats it and the prefix and continuation overlap (generation-safe-cut).',
    invariant: 'token-partition',
    // corrupt-prefix-segment only on some seeds (about 1 in 8): its first restore is refused, and
    // the retaken checkpoint seldom cuts.
    scenarios: [
      'generation-safe-cut',
      'completed-before-egress',
      'cut-restore-race',
      'straggler-retirement',
      'corrupt-prefix-segment',
    ],
  },
]

/** The catalogue entry of `name`. */
export function bugInfo(name: BugName): BugInfo {
  const info = BUG_CATALOGUE.find((b) => b.name === name)
  if (info === undefined) throw new Error(`unknown bug ${name}`)
  return info
}
