import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import type { Mermaid } from 'mermaid'
import { OTHERS_ID, declaredLifelines, foldLifelines } from '../lib/foldLifelines.ts'

type DiagramState =
  | { status: 'rendering' }
  | { status: 'ready' }
  | { status: 'error'; kind: 'parse' | 'render'; message: string }

let mermaidReady: Promise<Mermaid> | undefined

/** The message label's size in the drawing (scaled by the zoom). */
export const MESSAGE_FONT_PX = 13
/**
 * The smallest label a reader is shown, in CSS px: "Fit width" never shrinks the diagram below
 * this (it scrolls sideways in its own box instead), nor does zooming out.
 */
export const MIN_LABEL_PX = 11

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
        messageFontSize: MESSAGE_FONT_PX,
        actorFontSize: 12,
        noteFontSize: 12,
        // legible at any pane width: labels wrap to the lifelines' spacing instead of pushing the
        // lifelines apart, lifelines the window does not use are left out, and the boxes are narrow
        wrap: true,
        wrapPadding: 6,
        width: 90,
        actorMargin: 14,
        height: 50,
        boxMargin: 6,
        boxTextMargin: 4,
        noteMargin: 6,
        messageMargin: 26,
        diagramMarginX: 8,
        diagramMarginY: 6,
        hideUnusedParticipants: true,
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

/** Lifeline names longer than this are drawn on two lines, split after their first `_`. */
const LONG_NAME = 9

/**
 * The API's diagram with long lifeline names drawn on two lines (`resources_` / `blackjack`), so
 * the boxes stay as narrow as the lifelines' spacing; the ids, and so every message, are unchanged.
 */
export function compactLifelines(source: string): string {
  return source.replace(/^participant ([A-Za-z0-9_]+)(?: as (.+))?$/gm, (line, id: string, as) => {
    const label = (as as string | undefined) ?? id
    const cut = label.indexOf('_')
    if (label.length <= LONG_NAME || cut < 0 || label.includes('<br')) return line
    return `participant ${id} as ${label.slice(0, cut + 1)}<br/>${label.slice(cut + 1)}`
  })
}

/** The marker the current message's text starts with (as in the API's highlighted source). */
const HIGHLIGHT_MARK = '▶'
const HIGHLIGHT_CLASS = 'is-current'
const FUTURE_CLASS = 'is-future'
const FAILURE_CLASS = 'is-failure'
const SVG_NS = 'http://www.w3.org/2000/svg'

/** The arrow mermaid draws right after a message's text (a line, or a path for a self-message). */
function arrowOf(text: Element): Element | null {
  const next = text.nextElementSibling
  return next && /\bmessageLine[01]\b/.test(next.getAttribute('class') ?? '') ? next : null
}

/** One drawn message: its text lines (a wrapped label is one `text` per line) and its arrow. */
interface DrawnMessage {
  readonly texts: readonly SVGTextElement[]
  readonly arrow: Element | null
}

/** The drawn messages in drawing order: text lines up to (and with) the arrow drawn after them. */
function drawnMessages(root: ParentNode): DrawnMessage[] {
  const out: DrawnMessage[] = []
  let lines: SVGTextElement[] = []
  for (const text of root.querySelectorAll<SVGTextElement>('text.messageText')) {
    lines.push(text)
    const arrow = arrowOf(text)
    if (arrow) {
      out.push({ texts: lines, arrow })
      lines = []
    }
  }
  if (lines.length > 0) out.push({ texts: lines, arrow: null })
  return out
}

const toggle = (message: DrawnMessage, name: string, on: boolean) => {
  for (const text of message.texts) text.classList.toggle(name, on)
  message.arrow?.classList.toggle(name, on)
}

/** The box around a drawn message's text lines and arrow, in SVG units. */
function boxOf(message: DrawnMessage): { x: number; y: number; right: number; bottom: number } {
  let x = Infinity
  let y = Infinity
  let right = -Infinity
  let bottom = -Infinity
  const parts: Element[] = [...message.texts, ...(message.arrow ? [message.arrow] : [])]
  for (const part of parts) {
    if (!(part instanceof SVGGraphicsElement) || typeof part.getBBox !== 'function') continue
    const b = part.getBBox()
    x = Math.min(x, b.x)
    y = Math.min(y, b.y)
    right = Math.max(right, b.x + b.width)
    bottom = Math.max(bottom, b.y + b.height)
  }
  return { x, y, right, bottom }
}

/**
 * Moves the highlight to the `index`-th message of a drawn diagram: the marker and a box behind
 * its text and arrow; messages after it are faded, so the diagram reads as "the cycle so far"
 * with what comes next still in view. Runs in one pass over the messages, no re-render.
 */
function applyHighlight(
  root: HTMLElement,
  index: number,
  scroll: boolean,
  centre = false,
  labels: readonly string[] = [],
): void {
  const messages = drawnMessages(root)
  messages.forEach((message, i) => {
    const current = i === index
    // index -1 is step 0 (before the first message): everything in the window is still to come
    toggle(message, HIGHLIGHT_CLASS, current)
    toggle(message, FUTURE_CLASS, i > index)
    const first = message.texts[0] as SVGTextElement
    const content = first.textContent ?? ''
    const marked = content.startsWith(HIGHLIGHT_MARK)
    if (current && !marked) first.textContent = `${HIGHLIGHT_MARK} ${content}`
    if (!current && marked) first.textContent = content.slice(HIGHLIGHT_MARK.length).trimStart()
  })
  root.querySelector('rect.current-box')?.remove()
  const target = messages[index]
  if (!target) return
  const first = target.texts[0] as SVGTextElement
  const b = boxOf(target)
  if (Number.isFinite(b.x)) {
    const box = document.createElementNS(SVG_NS, 'rect')
    box.setAttribute('class', 'current-box')
    box.setAttribute('data-testid', 'current-message')
    // the label as the source has it (the drawing wraps it over lines)
    box.setAttribute('data-label', labels[index] ?? '')
    box.setAttribute('x', String(b.x - 8))
    box.setAttribute('y', String(b.y - 4))
    box.setAttribute('width', String(b.right - b.x + 16))
    box.setAttribute('height', String(b.bottom - b.y + 10))
    box.setAttribute('rx', '4')
    first.parentNode?.insertBefore(box, first)
  }
  // the box spans the text and both ends of the arrow: bring all of it into view
  if (scroll) scrollIntoContainer(root, root.querySelector('rect.current-box') ?? first, centre)
}

const MESSAGE_LINE = /^[A-Za-z0-9_]+-[-x>)]*[A-Za-z0-9_]+: (.*)$/

/** The label of each message of a diagram source, in drawing order. */
function messageLabels(source: string): string[] {
  const out: string[] = []
  for (const line of source.split('\n')) {
    const m = MESSAGE_LINE.exec(line)
    if (m) out.push(m[1] as string)
  }
  return out
}

/** Marks the messages at `marks` (indices among the drawn messages) as failing an invariant. */
function applyMarks(root: HTMLElement, marks: readonly number[]): void {
  const marked = new Set(marks)
  drawnMessages(root).forEach((message, i) => {
    const on = marked.has(i)
    toggle(message, FAILURE_CLASS, on)
    for (const text of message.texts)
      if (on) text.setAttribute('data-failure', 'true')
      else text.removeAttribute('data-failure')
  })
}

/** The index among the drawn messages of the message text or arrow an event landed on, or -1. */
function messageIndexAt(root: HTMLElement, target: EventTarget | null): number {
  if (!(target instanceof Element)) return -1
  const messages = drawnMessages(root)
  const text = target.closest('text.messageText')
  if (text) return messages.findIndex((m) => m.texts.includes(text as SVGTextElement))
  if (/\bmessageLine[01]\b/.test(target.getAttribute('class') ?? ''))
    return messages.findIndex((m) => m.arrow === target)
  if (target.closest('rect.current-box'))
    return messages.findIndex((m) => m.texts[0]?.classList.contains(HIGHLIGHT_CLASS))
  return -1
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
  // in CSS units of the drawing: the viewBox (fitToContent) starts above the boxes' y = 0
  const top = svg.viewBox?.baseVal?.y ?? 0
  const height =
    Math.max(
      ...tops.map((r) => Number(r.getAttribute('y') ?? 0) + Number(r.getAttribute('height') ?? 0)),
    ) -
    Math.min(0, top) +
    4
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

/**
 * Scrolls the diagram's own scroll box so `target` is comfortably visible (centred when
 * `centre`, as in presentation mode), then the page as little as needed to bring it into the
 * window (a short window shows the diagram below the transport).
 */
function scrollIntoContainer(box: HTMLElement, target: Element, centre = false): void {
  const boxRect = box.getBoundingClientRect()
  const rect = target.getBoundingClientRect()
  const margin = 48
  const head = box.querySelector<HTMLElement>('.diagram-head')?.getBoundingClientRect().height ?? 0
  if (
    centre ||
    rect.top < boxRect.top + head + margin / 2 ||
    rect.bottom > boxRect.bottom - margin
  ) {
    box.scrollTop += rect.top - boxRect.top - (box.clientHeight + head - rect.height) / 2
  }
  if (rect.left < boxRect.left || rect.right > boxRect.right) {
    // both ends of the arrow when they fit side by side, else its start
    const room = box.clientWidth
    box.scrollLeft +=
      rect.width <= room - 32
        ? rect.left - boxRect.left - (room - rect.width) / 2
        : rect.left - boxRect.left - 16
  }
  // the page only when the reader is looking at the diagram (not reading a tab further down)
  const now = target.getBoundingClientRect()
  const seen = boxRect.bottom > 0 && boxRect.top < window.innerHeight
  if (seen && (now.top < 0 || now.bottom > window.innerHeight))
    target.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
}

/** Scrolls the diagram's box sideways, the least, so `target` is inside it when it fits. */
function keepInViewSideways(box: HTMLElement, target: Element): void {
  const boxRect = box.getBoundingClientRect()
  const rect = target.getBoundingClientRect()
  const fits = rect.width <= box.clientWidth - 32
  // too wide for the box: its start in view
  if (rect.left < boxRect.left || (!fits && rect.left > boxRect.right - 48))
    box.scrollLeft += rect.left - boxRect.left - 16
  else if (fits && rect.right > boxRect.right) box.scrollLeft += rect.right - boxRect.right + 16
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
  onOpen,
  presenting = false,
  fill = false,
  marks = NO_MARKS,
  tools,
  defaultHidden = NO_HIDDEN,
  scope,
}: {
  source: string
  /** Index of the message to highlight (-1: none, step 0). */
  highlight: number
  testId?: string
  label?: string
  /**
   * The zoom it opens at: fit to the pane's width (default), or a scale. Either way never below
   * the scale at which labels are MIN_LABEL_PX: a wide diagram scrolls sideways in its own box.
   */
  initialZoom?: number | 'fit'
  /**
   * Called each time a drawing ends, drawn or failed (the run page holds its trace fetch until the
   * first one).
   */
  onSettled?: () => void
  /**
   * A message was clicked, or Enter pressed on the diagram (the current message): its index among
   * the drawn messages. The diagram is a tab stop when given.
   */
  onOpen?: (index: number) => void
  /** Presentation mode: large type (at least PRESENT_SCALE), the current message centred. */
  presenting?: boolean
  /** The scroll box takes the height left in the window below it (at least MIN_FILL_PX). */
  fill?: boolean
  /** Messages (indices among the drawn ones) where an invariant first fails: marked in red. */
  marks?: readonly number[]
  /** Controls drawn at the start of the zoom row (the run page's phase folds). */
  tools?: ReactNode
  /**
   * Lifelines folded into one `others` lifeline when it opens (a narrow pane keeps the ones its
   * story is about); the Lifelines menu changes them.
   */
  defaultHidden?: readonly string[]
  /** Named after its controls when a page holds two diagrams (`whole-request`, …). */
  scope?: string
}) {
  const named = (name: string) => (scope === undefined ? name : `${name} (${scope})`)
  const id = `m${useId().replace(/[^a-zA-Z0-9]/g, '')}`
  const box = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLDivElement>(null)
  const head = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<DiagramState>({ status: 'rendering' })
  const [drawnKey, setDrawnKey] = useState<string | null>(null)
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set(defaultHidden))
  const lifelines = useMemo(
    () => declaredLifelines(source).filter((l) => l.id !== OTHERS_ID),
    [source],
  )
  const key = useMemo(() => compactLifelines(foldLifelines(source, hidden)), [source, hidden])
  const highlightRef = useRef(highlight)
  highlightRef.current = highlight
  const settledRef = useRef(onSettled)
  settledRef.current = onSettled
  const centreRef = useRef(presenting)
  centreRef.current = presenting
  const [painted, setPainted] = useState(-1)
  // fit-to-width by default: as many lifelines as fit at a legible size, the rest a scroll away
  const [zoom, setZoom] = useState<number | 'fit'>(
    initialZoom === 'fit' ? 'fit' : Math.max(FIT_MIN, initialZoom),
  )
  const [fitScale, setFitScale] = useState(1)
  const shownScale = zoom === 'fit' ? fitScale : zoom
  const scale = presenting ? Math.max(PRESENT_SCALE, shownScale) : shownScale
  const [height, setHeight] = useState<number | null>(null)

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
        applyHighlight(
          box.current,
          highlightRef.current,
          true,
          centreRef.current,
          messageLabels(key),
        )
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

  // same drawing, new highlight (or a new scale, height or mode): move it in the existing SVG and
  // bring it into view before the browser paints
  useLayoutEffect(() => {
    if (drawnKey !== key || !box.current) return
    applyHighlight(box.current, highlight, true, presenting, messageLabels(key))
    setPainted(highlight)
  }, [drawnKey, key, highlight, scale, height, presenting])

  const marksKey = marks.join(',')
  useLayoutEffect(() => {
    if (drawnKey !== key || !box.current) return
    applyMarks(box.current, marksKey === '' ? [] : marksKey.split(',').map(Number))
  }, [drawnKey, key, marksKey])

  // the box follows the window: a resize refits the width (at "Fit width"), gives the box the
  // height left below it, and the layout effect above brings the current message back into view
  useEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => {
      if (fill) setHeight(fillHeight(el))
      if (zoom === 'fit' && canvas.current?.querySelector('svg'))
        setFitScale((shown) => steadyFit(shown, fitWidthScale(el, canvas.current as HTMLElement)))
      // a narrower box at the same scale (a side panel opened beside it) keeps the current
      // message in view sideways
      const current = el.querySelector('rect.current-box')
      if (current) keepInViewSideways(el, current)
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el.parentElement ?? el)
    window.addEventListener('resize', measure)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', measure)
    }
  }, [fill, zoom, drawnKey])

  const zoomTo = (next: number | 'fit') => {
    if (next === 'fit' && box.current && canvas.current)
      setFitScale(fitWidthScale(box.current, canvas.current))
    setZoom(next)
  }
  const open = (index: number) => {
    if (onOpen && index >= 0) onOpen(index)
  }
  return (
    <>
      <div className="diagram-bar">
        {tools}
        <details className="lifeline-menu">
          <summary>
            Lifelines
            {lifelines.some((l) => hidden.has(l.id))
              ? ` (${lifelines.filter((l) => hidden.has(l.id)).length} folded)`
              : ''}
          </summary>
          <fieldset>
            <legend className="small muted">Shown (unticked ones fold into “others”)</legend>
            {lifelines.map((l) => (
              <label key={l.id} className="check small">
                <input
                  type="checkbox"
                  checked={!hidden.has(l.id)}
                  onChange={() => {
                    const next = new Set(hidden)
                    if (next.has(l.id)) next.delete(l.id)
                    else next.add(l.id)
                    setHidden(next)
                  }}
                />{' '}
                <span className="mono">{l.label.replace('<br/>', '')}</span>
              </label>
            ))}
          </fieldset>
        </details>
        <div className="diagram-zoom" role="toolbar" aria-label={named('Diagram zoom')}>
          <button
            type="button"
            onClick={() => zoomTo(Math.max(ZOOM_MIN, round(shownScale / ZOOM_STEP)))}
            disabled={shownScale <= ZOOM_MIN}
            aria-label={named('Zoom out')}
          >
            −
          </button>
          <span className="zoom-level" data-testid="diagram-zoom-level">
            {Math.round(scale * 100)}%
          </span>
          <button
            type="button"
            onClick={() => zoomTo(Math.min(ZOOM_MAX, round(shownScale * ZOOM_STEP)))}
            disabled={shownScale >= ZOOM_MAX}
            aria-label={named('Zoom in')}
          >
            +
          </button>
          <button
            type="button"
            onClick={() => zoomTo('fit')}
            aria-pressed={zoom === 'fit'}
            aria-label={scope === undefined ? undefined : named('Fit width')}
          >
            Fit width
          </button>
          <button
            type="button"
            onClick={() => zoomTo(1)}
            disabled={zoom === 1}
            aria-label={scope === undefined ? undefined : named('100%')}
          >
            100%
          </button>
        </div>
      </div>
      <div
        className={`diagram${onOpen ? ' is-openable' : ''}`}
        data-testid={testId}
        data-state={state.status}
        data-highlight={state.status === 'ready' ? painted : undefined}
        data-scale={scale}
        aria-busy={state.status === 'rendering'}
        aria-label={
          onOpen ? `${label ?? 'Sequence diagram'}. Enter opens the current message.` : label
        }
        role="figure"
        ref={box}
        style={height === null ? undefined : { height }}
        tabIndex={onOpen ? 0 : -1}
        onClick={
          onOpen ? (event) => open(messageIndexAt(event.currentTarget, event.target)) : undefined
        }
        onKeyDown={
          onOpen
            ? (event) => {
                if (event.key !== 'Enter' || event.target !== event.currentTarget) return
                event.preventDefault()
                open(Math.max(0, highlight))
              }
            : undefined
        }
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

const NO_MARKS: readonly number[] = []
const NO_HIDDEN: readonly string[] = []

/** Presentation mode's smallest scale: 13 px labels drawn at ≥ 19 px. */
const PRESENT_SCALE = 1.5
/** The smallest height a filling diagram box takes (a short window scrolls the page instead). */
const MIN_FILL_PX = 300

/** The height left in the window below the box's top (in the page, not in the viewport). */
function fillHeight(el: HTMLElement): number {
  const top = el.getBoundingClientRect().top + window.scrollY
  return Math.max(
    MIN_FILL_PX,
    Math.floor(window.innerHeight - Math.min(top, window.innerHeight) - 12),
  )
}

const ZOOM_STEP = 1.25
/** The scale below which a label would be under MIN_LABEL_PX (rounded up to a percent). */
const FIT_MIN = Math.ceil((MIN_LABEL_PX / MESSAGE_FONT_PX) * 100) / 100
const ZOOM_MIN = FIT_MIN
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
  return Math.max(FIT_MIN, Math.min(1, Math.floor((room / natural) * 100) / 100))
}
