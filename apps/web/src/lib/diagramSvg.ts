/**
 * The drawn sequence diagram as standalone SVG text: the diagram itself (every message of the
 * window, with the participant boxes at its top), never the sticky header copy, which holds only
 * the participant boxes. Null while nothing is drawn.
 */
export function diagramSvg(root: ParentNode = document): string | null {
  const svg = root.querySelector('[data-testid="sequence-diagram"] .diagram-canvas svg')
  if (!svg) return null
  const copy = svg.cloneNode(true) as Element
  if (!copy.getAttribute('xmlns')) copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  return new XMLSerializer().serializeToString(copy)
}
