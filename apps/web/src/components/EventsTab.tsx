import { useDeferredValue, useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import type { TraceEvent } from '@cutover/core/contracts'
import { filterEvents } from '../lib/eventText.ts'
import { Empty } from './Empty.tsx'
import { VirtualList } from './VirtualList.tsx'

const ROW_HEIGHT = 28

/**
 * The Events tab: the raw trace, filterable by text; clicking an event seeks to its step, and
 * `inject` (the fault injection control for that event) sits above the list.
 */
export function EventsTab({ events, step, onSeek, inject }: { events: readonly TraceEvent[]; step: number; onSeek: (step: number) => void; inject?: ReactNode }) {
  const [filter, setFilter] = useState('')
  const deferred = useDeferredValue(filter)
  const shown = useMemo(() => filterEvents(events, deferred), [events, deferred])
  const currentIndex = shown.findIndex((e) => e.step === step)
  return (
    <div className="events" data-testid="events-log">
      <div className="table-tools">
        <input
          type="search"
          aria-label="Filter events"
          placeholder="Filter: words in type, participant, outcome, payload (e.g. stale_attempt)"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <span className="muted">{shown.length === events.length ? `${events.length} events` : `${shown.length} of ${events.length} events`}</span>
      </div>
      {inject}
      {shown.length === 0 ? (
        <Empty>{events.length === 0 ? 'No events yet.' : 'No event matches the filter.'}</Empty>
      ) : (
        <VirtualList
          items={shown}
          rowHeight={ROW_HEIGHT}
          height={360}
          role="group"
          label="Trace events"
          scrollToIndex={currentIndex}
          renderRow={(event) => (
            <button
              type="button"
              className={`event-row phase-${event.phase}${event.step === step ? ' is-current' : ''}${event.outcome !== 'ok' ? ' is-refused' : ''}`}
              data-step={event.step}
              aria-current={event.step === step ? 'step' : undefined}
              onClick={() => onSeek(event.step)}
            >
              <span className="num muted">{event.step}</span>
              <span className="num muted">{event.time_ms}ms</span>
              <span className={`phase-chip phase-${event.phase}`}>{event.phase}</span>
              <span className="mono">{event.from} → {event.to}</span>
              <span className="mono strong">{event.type}</span>
              <span className={event.outcome === 'ok' ? 'muted' : 'outcome-error'}>{event.outcome}</span>
              <span className="mono muted payload">{JSON.stringify(event.payload)}</span>
            </button>
          )}
        />
      )}
    </div>
  )
}
