import { useEffect, useRef, useState } from 'react'
import type { ReactNode } from 'react'

/** Rows drawn beyond the visible ones on each side, so a fast scroll does not show blank rows. */
const OVERSCAN = 6

/** The slice of rows to draw for a scroll offset: visible rows plus the overscan. */
export function visibleRange(
  scrollTop: number,
  height: number,
  rowHeight: number,
  count: number,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight)
  const visible = Math.ceil(height / rowHeight) + 1
  return { start: Math.max(0, first - OVERSCAN), end: Math.min(count, first + visible + OVERSCAN) }
}

/**
 * A fixed-row-height windowed list: a scroll box of known height with a spacer as tall as all
 * rows, and only the rows in view (plus overscan) in the DOM. 10,000 rows cost as much as 30.
 * `scrollToIndex` brings a row into view (the selected session, the current event).
 */
export function VirtualList<T>({
  items,
  rowHeight,
  height,
  renderRow,
  scrollToIndex,
  label,
  role = 'rowgroup',
  onRange,
}: {
  items: readonly T[]
  rowHeight: number
  height: number
  renderRow: (item: T, index: number) => ReactNode
  scrollToIndex?: number | null
  label?: string
  role?: string
  /**
   * Told the rows drawn (visible plus overscan) whenever they change: a paged list asks for them.
   */
  onRange?: (start: number, end: number) => void
}) {
  const box = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)

  useEffect(() => {
    const el = box.current
    if (!el || scrollToIndex === null || scrollToIndex === undefined || scrollToIndex < 0) return
    const top = scrollToIndex * rowHeight
    if (top < el.scrollTop || top + rowHeight > el.scrollTop + height) {
      el.scrollTop = Math.max(0, top - height / 2)
      setScrollTop(el.scrollTop)
    }
  }, [scrollToIndex, rowHeight, height])

  const { start, end } = visibleRange(scrollTop, height, rowHeight, items.length)
  useEffect(() => onRange?.(start, end), [onRange, start, end])
  const rows: ReactNode[] = []
  for (let i = start; i < end; i++) {
    rows.push(
      <div key={i} className="vrow-slot" style={{ top: i * rowHeight, height: rowHeight }}>
        {renderRow(items[i] as T, i)}
      </div>,
    )
  }
  return (
    <div
      ref={box}
      className="vlist"
      role={role}
      aria-label={label}
      style={{ height }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div className="vlist-spacer" style={{ height: items.length * rowHeight }}>
        {rows}
      </div>
    </div>
  )
}
