import type { RecordedDirectoryFacts, TraceViews } from '@cutover/core'
import { recordedViews } from '@cutover/core'
import type { RecordingView, RunView, TraceEvent } from '@cutover/core/contracts'
import { cachedDirectoryFacts } from '../record/directoryFacts.ts'
import { RecordingTail } from '../record/RecordingTail.ts'
import { recordedRunView, recordingFacts } from '../record/recordedRunView.ts'
import type { RunStore } from '../store/RunStore.ts'

/** What the recorded runs need from the edge. */
export interface RecordedRunsDeps {
  readonly store: RunStore
  /** Whether the recorder process of a running recording is still alive. */
  readonly alive: (pid: number) => boolean
  /** Wall-clock milliseconds (when to look at run.json and the directories again). */
  readonly now: () => number
  readonly log?: (line: string) => void
  /** How often a running recording is read for new exchanges (default 250 ms; 0: no timer). */
  readonly pollMs?: number
}

/** One recorded run the server holds. */
interface Recorded {
  /** run.json as the recorder (or the import) wrote it. */
  stored: RunView
  /** The view served: the stored one brought up to date with the recording. */
  view: RunView
  readonly tail: RecordingTail
  facts: readonly RecordedDirectoryFacts[]
  factsAt: { events: number; ms: number }
  checkedRunJsonAt: number
  views: { events: number; facts: readonly RecordedDirectoryFacts[]; views: TraceViews } | undefined
  readonly listeners: Set<() => void>
}

/**
 * The runs of kind `recorded` a server holds (docs/recording.md). Their trace is their recording:
 * read once when the run is adopted, and while its recorder records, read again every `pollMs`
 * for the exchanges appended since (the live edge: listeners hear of each batch, as for a
 * simulated run streaming). A recording's end is its recorder's: run.json says `complete` (the
 * recorder closed it), or the recorder's process is gone (killed: the recording is closed here, a
 * line it left half-written reported as truncated, every line before it kept).
 */
export interface RecordedRuns {
  adopt(stored: RunView): void
  has(id: string): boolean
  list(): readonly RunView[]
  get(id: string): RunView | undefined
  events(id: string): readonly TraceEvent[] | undefined
  views(id: string): TraceViews | undefined
  subscribe(id: string, listener: () => void): () => void
  remove(id: string): boolean
  /** Reads every running recording once (the poll's work; tests call it directly). */
  refresh(): void
  /** Stops the poll. */
  close(): void
  readonly size: number
}

/** How often run.json and the recorder's process are looked at while a recording runs. */
const RUN_JSON_EVERY_MS = 1_000
/** How often the named directories are looked at again while a recording grows. */
const FACTS_EVERY_MS = 1_000

export function createRecordedRuns(deps: RecordedRunsDeps): RecordedRuns {
  const runs = new Map<string, Recorded>()
  const facts = cachedDirectoryFacts()
  const log = deps.log ?? (() => undefined)
  let timer: NodeJS.Timeout | undefined

  const notify = (r: Recorded): void => {
    for (const listener of [...r.listeners]) listener()
  }
  const recordingOf = (view: RunView): RecordingView => view.recording as RecordingView

  const update = (r: Recorded, complete: boolean, force = false): void => {
    const now = deps.now()
    const events = r.tail.events.length
    if (force || (events !== r.factsAt.events && now - r.factsAt.ms >= FACTS_EVERY_MS)) {
      r.facts = recordingFacts(r.tail.events, recordingOf(r.stored), facts)
      r.factsAt = { events, ms: now }
    }
    r.view = recordedRunView(r.stored, r.tail, r.facts, complete)
  }

  /** Closes a recording whose recorder stopped: what it left, its problems, stored complete. */
  const finish = (r: Recorded, reason: string | null): void => {
    r.tail.finish()
    update(r, true, true)
    if (reason !== null) {
      const recording = recordingOf(r.view)
      r.view = {
        ...r.view,
        recording: {
          ...recording,
          problems: [...recording.problems, { line: r.tail.events.length + 1, message: reason }],
        },
      }
    }
    r.stored = r.view
    try {
      deps.store.writeRun(r.view)
    } catch (error) {
      log(`run ${r.view.id}: cannot store the closed recording: ${String(error)}`)
    }
    notify(r)
  }

  const poll = (r: Recorded): void => {
    if (r.view.status !== 'running') return
    const grew = r.tail.read()
    const now = deps.now()
    if (now - r.checkedRunJsonAt >= RUN_JSON_EVERY_MS) {
      r.checkedRunJsonAt = now
      const stored = deps.store.readRun(r.stored.id)
      if (stored?.status === 'complete') {
        r.stored = { ...stored, status: 'running' }
        finish(r, null)
        return
      }
      const pid = recordingOf(r.stored).recorder_pid
      if (pid !== undefined && !deps.alive(pid)) {
        // One last read: the recorder may have written its last lines just before it died.
        finish(
          r,
          `the recorder (pid ${pid}) stopped without closing the recording (killed?): the exchanges it recorded are kept, any still in flight are lost`,
        )
        return
      }
    }
    if (grew) {
      update(r, false)
      notify(r)
    }
  }

  const ensureTimer = (): void => {
    const every = deps.pollMs ?? 250
    if (every <= 0 || timer !== undefined) return
    timer = setInterval(() => {
      let running = 0
      for (const r of runs.values()) {
        poll(r)
        if (r.view.status === 'running') running++
      }
      if (running === 0 && timer !== undefined) {
        clearInterval(timer)
        timer = undefined
      }
    }, every)
    timer.unref()
  }

  return {
    adopt(stored) {
      if (runs.has(stored.id)) return
      const r: Recorded = {
        stored,
        view: stored,
        tail: new RecordingTail(deps.store.recordingPath(stored.id)),
        facts: [],
        factsAt: { events: -1, ms: Number.NEGATIVE_INFINITY },
        checkedRunJsonAt: Number.NEGATIVE_INFINITY,
        views: undefined,
        listeners: new Set(),
      }
      runs.set(stored.id, r)
      r.tail.read()
      if (stored.status !== 'running') {
        r.tail.finish()
        update(r, true, true)
        // The recorder's own verdict on the problems it saw (e.g. a truncated line) stays.
        r.view = {
          ...r.view,
          recording: {
            ...recordingOf(r.view),
            problems: [...recordingOf(stored).problems, ...r.tail.problems].filter(
              (p, i, all) => all.findIndex((q) => q.message === p.message) === i,
            ),
          },
        }
        return
      }
      update(r, false, true)
      poll(r)
      ensureTimer()
    },
    has: (id) => runs.has(id),
    list: () => [...runs.values()].map((r) => r.view),
    get: (id) => runs.get(id)?.view,
    events: (id) => runs.get(id)?.tail.events,
    views(id) {
      const r = runs.get(id)
      if (r === undefined) return undefined
      const events = r.tail.events
      if (r.views === undefined || r.views.events !== events.length || r.views.facts !== r.facts)
        r.views = {
          events: events.length,
          facts: r.facts,
          views: recordedViews(events.slice(), r.facts),
        }
      return r.views.views
    },
    subscribe(id, listener) {
      const r = runs.get(id)
      if (r === undefined) return () => undefined
      r.listeners.add(listener)
      return () => r.listeners.delete(listener)
    },
    remove(id) {
      const r = runs.get(id)
      if (r === undefined) return false
      runs.delete(id)
      deps.store.removeRun(id)
      notify(r)
      return true
    },
    refresh() {
      for (const r of runs.values()) poll(r)
    },
    close() {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
    },
    get size() {
      return runs.size
    },
  }
}
