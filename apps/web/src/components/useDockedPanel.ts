import { useEffect, useLayoutEffect, useRef } from 'react'
import type { RefObject } from 'react'

/** Room kept between a docked panel and the window's edges (or the bar above it), in CSS px. */
const MARGIN = 8
/** The run page's transport bar stays stuck at the window's top: the panel docks under it. */
const STUCK_HEAD = '.transport'

/**
 * Keeps a side panel in the window. Where the layout docks it (`position: sticky`, beside the
 * diagram in a wide window) it sticks under the transport bar and its height is the window's
 * height left below its top, so it scrolls inside itself and never runs past the bottom edge,
 * however far the page is scrolled. Where it sits in the page's flow (under the diagram in a narrow
 * window) it is scrolled into view once, when its content has `loaded`, so opening it never
 * happens out of sight.
 */
export function useDockedPanel(panel: RefObject<HTMLElement | null>, loaded: boolean): void {
  useLayoutEffect(() => {
    const el = panel.current
    if (!el) return
    let frame = 0
    const fit = () => {
      frame = 0
      const head = document.querySelector<HTMLElement>(STUCK_HEAD)
      const under = head && getComputedStyle(head).position === 'sticky' ? head.offsetHeight : 0
      // a scroll into view (below) stops under the bar too
      el.style.scrollMarginTop = `${under + MARGIN}px`
      if (getComputedStyle(el).position !== 'sticky') {
        el.style.removeProperty('top')
        el.style.removeProperty('max-height')
        return
      }
      el.style.top = `${under + MARGIN}px`
      const top = Math.max(0, el.getBoundingClientRect().top)
      el.style.maxHeight = `${Math.max(200, window.innerHeight - top - MARGIN)}px`
    }
    const later = () => {
      if (frame === 0) frame = window.requestAnimationFrame(fit)
    }
    fit()
    window.addEventListener('scroll', later, { passive: true })
    window.addEventListener('resize', later)
    return () => {
      window.removeEventListener('scroll', later)
      window.removeEventListener('resize', later)
      if (frame !== 0) window.cancelAnimationFrame(frame)
    }
  }, [panel])

  const shown = useRef(false)
  useEffect(() => {
    const el = panel.current
    if (!el || !loaded || shown.current) return
    shown.current = true
    if (getComputedStyle(el).position === 'sticky') return
    const box = el.getBoundingClientRect()
    if (box.top >= 0 && box.bottom <= window.innerHeight) return
    // taller than the window: its head (title, Close) at the top; else all of it, moved the least
    el.scrollIntoView?.({ block: box.height > window.innerHeight ? 'start' : 'nearest' })
  }, [panel, loaded])
}
