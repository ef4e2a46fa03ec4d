import type { DirectorySessionDetail } from '../contracts/directoryRun.ts'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { blackjackCodec } from '../environments/blackjack/blackjackServer.ts'
import { formatHand, handValue } from '../environments/blackjack/blackjackRules.ts'
import { counterCodec } from '../environments/counter/counterServer.ts'
import type { WorkplaceBase } from '../environments/workplace/WorkplaceSession.ts'
import { diffSummary } from '../environments/workplace/diffTables.ts'
import { snapshotTables } from './snapshotTables.ts'

/**
 * What a snapshot holds, in the words of its environment, plus the one-line summary of the Sessions
 * tab.
 */
export interface SnapshotDescription {
  readonly detail: DirectorySessionDetail
  readonly summary: string
}

const unreadable = (message: string): SnapshotDescription => ({
  detail: { kind: 'unreadable', message },
  summary: `unreadable: ${message}`,
})

/**
 * Decodes one resources snapshot with its environment's own checkpoint codec (the code a restore
 * runs): a Blackjack hand and the RNG position, a counter, or a Workplace session's changed rows
 * against the base (either state form). `server` is the resources server name; a state the codec
 * refuses is `unreadable` with the codec's message. Pure.
 */
export function describeSnapshot(
  server: string,
  snapshot: ResourceSnapshot,
  workplace: WorkplaceBase | undefined,
): SnapshotDescription {
  switch (server) {
    case 'blackjack': {
      const session = blackjackCodec.restoreState(snapshot.state)
      if (!session.ok) return unreadable(session.error.message)
      const { player, dealer } = session.value
      const state = session.value.rng.getStateJson() as unknown as readonly [
        number,
        readonly number[],
        null,
      ]
      const rng_position = state[1][state[1].length - 1] ?? 0
      return {
        detail: {
          kind: 'blackjack',
          player,
          dealer,
          player_value: handValue(player),
          rng_position,
        },
        summary: `${blackjackCodec.describe(session.value)} · rng ${rng_position}/624 · dealer ${formatHand(dealer)}`,
      }
    }
    case 'counter': {
      const session = counterCodec.restoreState(snapshot.state)
      if (!session.ok) return unreadable(session.error.message)
      const { counter } = session.value
      return {
        detail: {
          kind: 'counter',
          counter: typeof counter === 'number' ? counter : counter.toString(),
        },
        summary: counterCodec.describe(session.value),
      }
    }
    case 'workplace': {
      if (workplace === undefined) return unreadable('the Workplace base tables are not available')
      const tables = snapshotTables(workplace, snapshot.state)
      if (!tables.ok) return unreadable(tables.error.message)
      const { added, removed, changed } = diffSummary(tables.value)
      const form = (snapshot.state as { form?: unknown } | null)?.form === 'full' ? 'full' : 'delta'
      const n = added + removed + changed
      return {
        detail: { kind: 'workplace', form, added, removed, changed },
        summary: `${n} row${n === 1 ? '' : 's'} changed (${form} form)`,
      }
    }
    default:
      return unreadable(`no environment named ${server}`)
  }
}
