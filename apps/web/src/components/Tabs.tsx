import { useRef } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import { TABS, TAB_LABELS } from '../router/route.ts'
import type { Tab } from '../router/route.ts'

/**
 * The inspector tabs with the WAI-ARIA tabs pattern: one tab stop, ←/→/Home/End move between
 * tabs and select them, the panel is labelled by its tab. Only the selected panel is rendered.
 */
export function Tabs({ selected, onSelect, children }: { selected: Tab; onSelect: (tab: Tab) => void; children: ReactNode }) {
  const refs = useRef(new Map<Tab, HTMLButtonElement>())
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.indexOf(selected)
    const next =
      event.key === 'ArrowRight' ? TABS[(index + 1) % TABS.length]
      : event.key === 'ArrowLeft' ? TABS[(index - 1 + TABS.length) % TABS.length]
      : event.key === 'Home' ? TABS[0]
      : event.key === 'End' ? TABS[TABS.length - 1]
      : undefined
    if (!next) return
    event.preventDefault()
    onSelect(next)
    refs.current.get(next)?.focus()
  }
  return (
    <section className="tabs">
      <div role="tablist" aria-label="Inspector" className="tablist">
        {TABS.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`tab-${tab}`}
            aria-selected={tab === selected}
            aria-controls={`panel-${tab}`}
            tabIndex={tab === selected ? 0 : -1}
            ref={(el) => {
              if (el) refs.current.set(tab, el)
              else refs.current.delete(tab)
            }}
            onClick={() => onSelect(tab)}
            onKeyDown={move}
          >
            {TAB_LABELS[tab]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${selected}`} aria-labelledby={`tab-${selected}`} className="tabpanel" tabIndex={0}>
        {children}
      </div>
    </section>
  )
}
