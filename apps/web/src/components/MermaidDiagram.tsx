import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import type { Mermaid } from 'mermaid'

type DiagramState =
  | { status: 'rendering' }
  | { status: 'ready' }
  | { status: 'error'; kind: 'parse' | 'render'; message: string }

let mermaidReady: Promise<Mermaid> | undefined

/**
 * A one-message diagram: parsing it loads mermaid's sequence-diagram module (a chunk of its own).
 */
const WARM_UP = 'sequenceDiagram\n  a->>b: .'

/**
 * Loads mermaid once, lazily, so it stays out of the main bundle, with its sequence-diagram module:
 * that loads while the first step is fetched instead of inside the first diagram's render.
 */
function loadMermaid() {
  mermaidReady ??= import('mermaid').then(async ({ default: mermaid }) => {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'base',
      themeVariables: {
        fontFamily: 'Inter, Segoe UI, system-ui, sans-serif',
        fontSize: '13px',
        primaryColor: '#ffffff',
        primaryBorderColor: '#94a3b8',
        primaryTextColor: '#1b2330',
        actorBkg: '#ffffff',
        actorBorder: '#94a3b8',
        actorTextColor: '#1b2330',
        actorLineColor: '#cbd5e1',
        signalColor: '#334155',
        signalTextColor: '#1b2330',
        noteBkgColor: '#ffffff',
        noteBorderColor: '#cbd5e1',
        noteTextColor: '#4b5565',
      },
      sequence: {
        useMaxWidth: false,
        mirrorActors: false,
        messageFontSize: 13,
        actorFontSize: 13,
        noteFontSize: 12,
      },
    })
    await mermaid.parse(WARM_UP, { suppressErrors: true })
    return mermaid
  })
  return mermaidReady
}

/** Starts loading mermaid ahead of the first diagram (while its step is still being fetched). */
export function preloadMermaid(): void {
  void loadMermaid()
}

/** The marker the current message's text starts with (as in the API's highlighted source). */
const HIGHLIGHT_MARK = '▶'
const HIGHLIGHT_CLASS = 'is-current'
const FUTURE_CLASS = 'is-future'
const SVG_NS = 'http://www.w3.org/2000/svg'

/** The arrow mermaid draws right after a message's text (a line, or a path for a self-message). */
function arrowOf(text: Element): Element | null {
  const next = text.nextElementSibling
  return next && /\bmessageLine[01]\b/.test(next.getAttribute('class') ?? '') ? next : null
}

/**
 * Moves the highlight to the `index`-th message of a drawn diagram: the marker and a box behind
 * its text and arrow; messages after it are faded, so the diagram reads as "the cycle so far"
 * with what comes next still in view. Runs in one pass over the messages, no re-render.
 */
function applyHighlight(root: HTMLElement, index: number, scroll: boolean): void {
  const texts = root.querySelectorAll<SVGTextElement>('text.messageText')
  texts.forEach((text, i) => {
    const current = i === index
    // index -1 is step 0 (before the first message): everything in the window is still to come
    const future = i > index
    const arrow = arrowOf(text)
    text.classList.toggle(HIGHLIGHT_CLASS, current)
    text.classList.toggle(FUTURE_CLASS, future)
    arrow?.classList.toggle(HIGHLIGHT_CLASS, current)
    arrow?.classList.toggle(FUTURE_CLASS, future)
    const content = text.textContent ?? ''
    const marked = content.startsWith(HIGHLIGHT_MARK)
    if (current && !marked) text.textContent = `${HIGHLIGHT_MARK} ${content}`
    if (!current && marked) text.textContent = content.slice(HIGHLIGHT_MARK.length).trimStart()
  })
  root.querySelector('rect.current-box')?.remove()
  const target = texts[index]
  if (!target) return
  const arrow = arrowOf(target)
  if (typeof target.getBBox === 'function') {
    const a = target.getBBox()
    const b = arrow instanceof SVGGraphicsElement ? arrow.getBBox() : a
    const x = Math.min(a.x, b.x) - 8
    const y = Math.min(a.y, b.y) - 4
    const box = document.createElementNS(SVG_NS, 'rect')
    box.setAttribute('class', 'current-box')
    box.setAttribute('x', String(x))
    box.setAttribute('y', String(y))
    box.setAttribute('width', String(Math.max(a.x + a.width, b.x + b.width) + 8 - x))
    box.setAttribute('height', String(Math.max(a.y + a.height, b.y + b.height) + 6 - y))
    box.setAttribute('rx', '4')
    target.parentNode?.insertBefore(box, target)
  }
  // the box spans the text and both ends of the arrow: bring all of it into view
  if (scroll) scrollIntoContainer(root, root.querySelector('rect.current-box') ?? target)
}

/**
 * Builds the pinned participant header: a copy of the drawn SVG cut to its top row of actor boxes,
 * shown sticky at the top of the scroll box so the lifelines stay named however far one scrolls.
 * The copy gets its own id (mermaid scopes its styles by the SVG's id) and loses everything but
 * the actors.
 */
function buildHeader(header: HTMLElement, svg: SVGSVGElement | null): void {
  header.replaceChildren()
  const tops = svg ? [...svg.querySelectorAll<SVGRectElement>('rect.actor-top')] : []
  if (!svg || tops.length === 0) {
    header.style.height = '0px'
    return
  }
  const height =
    Math.max(
      ...tops.map((r) => Number(r.getAttribute('y') ?? 0) + Number(r.getAttribute('height') ?? 0)),
    ) + 4
  const copy = svg.cloneNode(true) as SVGSVGElement
  const id = `${svg.id}-head`
  copy.id = id
  const style = copy.querySelector('style')
  if (style) style.textContent = (style.textContent ?? '').replaceAll(`#${svg.id}`, `#${id}`)
  copy
    .querySelectorAll(
      'text.messageText, .messageLine0, .messageLine1, rect.current-box, .note, .noteText, rect.rect, .actor-bottom',
    )
    .forEach((el) => el.remove())
  copy.querySelectorAll('[id]').forEach((el) => {
    if (el !== copy) el.removeAttribute('id')
  })
  copy.setAttribute('aria-hidden', 'true')
  header.style.height = `${height}px`
  header.style.marginBottom = `-${height}px`
  header.append(copy)
}

/**
 * Room left around the drawn content, in SVG units (the current message's box reaches 8 beyond its
 * text).
 */
const CONTENT_MARGIN = 12

/**
 * Makes the SVG's own box the box of what is drawn in it. Mermaid sizes the SVG from its layout,
 * but a self-message's label on the first or last lifeline, or a long label, can reach past it and
 * be clipped or push the pane sideways; measured after drawing, every label is inside.
 */
function fitToContent(svg: SVGSVGElement | null): void {
  if (!svg || typeof svg.getBBox !== 'function') return
  const box = svg.getBBox()
  if (!(box.width > 0) || !(box.height > 0)) return
  const x = Math.floor(box.x - CONTENT_MARGIN)
  const y = Math.floor(box.y - CONTENT_MARGIN)
  const width = Math.ceil(box.width + 2 * CONTENT_MARGIN)
  const height = Math.ceil(box.height + 2 * CONTENT_MARGIN)
  svg.setAttribute('viewBox', `${x} ${y} ${width} ${height}`)
  svg.setAttribute('width', String(width))
  svg.setAttribute('height', String(height))
  svg.style.removeProperty('max-width')
}

/** Scrolls the diagram's own scroll box (never the page) so `target` is comfortably visible. */
function scrollIntoContainer(box: HTMLElement, target: Element): void {
  const boxRect = box.getBoundingClientRect()
  const rect = target.getBoundingClientRect()
  const margin = 48
  if (rect.top < boxRect.top + margin || rect.bottom > boxRect.bottom - margin) {
    box.scrollTop += rect.top - boxRect.top - box.clientHeight / 2
  }
  if (rect.left < boxRect.left || rect.right > boxRect.right) {
    // both ends of the arrow when they fit side by side, else its start
    const room = box.clientWidth
    box.scrollLeft +=
      rect.width <= room - 32
        ? rect.left - boxRect.left - (room - rect.width) / 2
        : rect.left - boxRect.left - 16
  }
}

/**
 * Renders mermaid source (without a highlight) to SVG and highlights message `highlight`; shows a
 * typed error when the source does not parse or render. When only the highlight changes, the drawn
 * SVG is kept and the highlight moves in place — stepping through a window costs no re-render.
 * `data-highlight`
 * carries the highlighted message index once it is painted (the e2e suite times repaints by it).
 */
export function MermaidDiagram({
  source,
  highlight,
  testId = 'sequence-diagram',
  label,
  initialZoom = 'fit',
  onSettled,
}: {
  source: string
  /** Index of the message to highlight (-1: none, step 0). */
  highlight: number
  testId?: string
  label?: string
  /**
   * The zoom it opens at: fit to the pane's width (default), or a scale (a narrow pane reads better
   * zoomed, scrolled to the current message).
   */
  initialZoom?: number | 'fit'
  /**
   * Called each time a drawing ends, drawn or failed (the run page holds its trace fetch until the
   * first one).
   */
  onSettled?: () => void
}) {
  const id = `m${useId().replace(/[^a-zA-Z0-9]/g, '')}`
  const box = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLDivElement>(null)
  const head = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<DiagramState>({ status: 'rendering' })
  const [drawnKey, setDrawnKey] = useState<string | null>(null)
  const key = source
  const highlightRef = useRef(highlight)
  highlightRef.current = highlight
  const settledRef = useRef(onSettled)
  settledRef.current = onSettled
  const [painted, setPainted] = useState(-1)
  // fit-to-width by default: every lifeline shows in the pane without scrolling sideways
  const [zoom, setZoom] = useState<number | 'fit'>(initialZoom)
  const [fitScale, setFitScale] = useState(1)
  const scale = zoom === 'fit' ? fitScale : zoom

  useEffect(() => {
    let cancelled = false
    setState({ status: 'rendering' })
    void (async () => {
      const started = performance.now()
      const mermaid = await loadMermaid()
      const loaded = performance.now()
      const parsed = await mermaid.parse(key, { suppressErrors: true })
      if (cancelled) return
      if (!parsed) {
        setState({ status: 'error', kind: 'parse', message: 'the diagram source does not parse' })
        settledRef.current?.()
        return
      }
      try {
        const { svg } = await mermaid.render(id, key)
        if (cancelled || !canvas.current || !box.current) return
        canvas.current.innerHTML = svg
        fitToContent(canvas.current.querySelector('svg'))
        if (head.current) buildHeader(head.current, canvas.current.querySelector('svg'))
        applyHighlight(box.current, highlightRef.current, true)
        setPainted(highlightRef.current)
        setDrawnKey(key)
        const fit = fitWidthScale(box.current, canvas.current)
        setFitScale((shown) => steadyFit(shown, fit))
        setState({ status: 'ready' })
        // figures for the e2e suite: loading mermaid (first time only) and parse + render + paint
        // prep
        if (loaded - started > 1)
          performance.measure('cutover:mermaid-load', { start: started, end: loaded })
        performance.measure('cutover:diagram-render', { start: loaded })
        settledRef.current?.()
      } catch (error) {
        if (cancelled) return
        setState({
          status: 'error',
          kind: 'render',
          message: error instanceof Error ? error.message : String(error),
        })
        settledRef.current?.()
      }
    })()
    return () => {
      cancelled = true
    }
  }, [id, key])

  // same drawing, new highlight: move it in the existing SVG before the browser paints
  useLayoutEffect(() => {
    if (drawnKey !== key || !box.current) return
    applyHighlight(box.current, highlight, true)
    setPainted(highlight)
  }, [drawnKey, key, highlight])

  const zoomTo = (next: number | 'fit') => {
    if (next === 'fit' && box.current && canvas.current)
      setFitScale(fitWidthScale(box.current, canvas.current))
    setZoom(next)
  }
  return (
    <>
      <div className="diagram-zoom" role="toolbar" aria-label="Diagram zoom">
        <button
          type="button"
          onClick={() => zoomTo(Math.max(ZOOM_MIN, round(scale / ZOOM_STEP)))}
          disabled={scale <= ZOOM_MIN}
          aria-label="Zoom out"
        >
          −
        </button>
        <span className="zoom-level" data-testid="diagram-zoom-level">
          {Math.round(scale * 100)}%
        </span>
        <button
          type="button"
          onClick={() => zoomTo(Math.min(ZOOM_MAX, round(scale * ZOOM_STEP)))}
          disabled={scale >= ZOOM_MAX}
          aria-label="Zoom in"
        >
          +
        </button>
        <button type="button" onClick={() => zoomTo('fit')} aria-pressed={zoom === 'fit'}>
          Fit width
        </button>
        <button type="button" onClick={() => zoomTo(1)} disabled={zoom === 1}>
          100%
        </button>
      </div>
      <div
        className="diagram"
        data-testid={testId}
        data-state={state.status}
        data-highlight={state.status === 'ready' ? painted : undefined}
        aria-busy={state.status === 'rendering'}
        aria-label={label}
        role="figure"
        ref={box}
        tabIndex={-1}
      >
        {state.status === 'error' && (
          <p role="alert" className="error">
            Diagram {state.kind} error: {state.message}
          </p>
        )}
        <div ref={head} className="diagram-head" style={{ zoom: scale }} />
        <div ref={canvas} className="diagram-canvas" style={{ zoom: scale }} />
      </div>
    </>
  )
}

const ZOOM_STEP = 1.25
const ZOOM_MIN = 0.2
const ZOOM_MAX = 3
const round = (n: number) => Math.round(n * 100) / 100

/**
 * The fit scale after a redraw: a drawing that would overflow at the scale shown shrinks at once;
 * one that is only a little narrower keeps the scale shown, so the participant header does not
 * change size with every window of the same run (it grows back once it is 10% too small).
 */
function steadyFit(shown: number, fit: number): number {
  return fit < shown || fit > shown * 1.1 ? fit : shown
}

/**
 * The scale at which the drawn diagram fills the scroll box's width (never above 1: fit shrinks).
 */
function fitWidthScale(box: HTMLElement, canvas: HTMLElement): number {
  const svg = canvas.querySelector('svg')
  const natural = svg ? Number(svg.getAttribute('width')) || svg.getBBox?.().width || 0 : 0
  const room = box.clientWidth - 16
  if (!(natural > 0) || !(room > 0)) return 1
  // rounded down: a scale rounded up by half a percent is a few pixels of sideways scroll
  return Math.max(ZOOM_MIN, Math.min(1, Math.floor((room / natural) * 100) / 100))
}
