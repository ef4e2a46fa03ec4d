import { useRef } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import { TABS as RUN_TABS, TAB_LABELS as RUN_TAB_LABELS } from '../router/route.ts'
import type { Tab } from '../router/route.ts'

/**
 * The inspector tabs with the WAI-ARIA tabs pattern: one tab stop, ←/→/Home/End move between
 * tabs and select them, the panel is labelled by its tab. Only the selected panel is rendered.
 */
export function Tabs<T extends string = Tab>({
  selected,
  onSelect,
  children,
  tabs,
  labels,
}: {
  selected: T
  onSelect: (tab: T) => void
  children: ReactNode
  /** Another set of tabs than the run inspector's (the directory inspector's). */
  tabs?: readonly T[]
  labels?: { readonly [K in T]: string }
}) {
  const TABS = tabs ?? (RUN_TABS as readonly string[] as readonly T[])
  const TAB_LABELS = labels ?? (RUN_TAB_LABELS as unknown as { readonly [K in T]: string })
  const refs = useRef(new Map<T, HTMLButtonElement>())
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.indexOf(selected)
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index - 1 + TABS.length) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
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
      <div
        role="tabpanel"
        id={`panel-${selected}`}
        aria-labelledby={`tab-${selected}`}
        className="tabpanel"
        tabIndex={0}
      >
        {children}
      </div>
    </section>
  )
}
