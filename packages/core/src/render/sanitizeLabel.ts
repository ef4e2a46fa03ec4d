/**
 * Characters mermaid's sequence grammar treats as syntax inside a label, mapped to the `#<code>;`
 * entities mermaid decodes again when it draws the text. `;` and `#` end a message, `:` can turn
 * a leading `wrap:` into a directive, `<`/`>` open HTML, `%` starts comments and `%%{…}%%` init
 * directives (matched anywhere in the source), `&` would start an HTML entity of its own, and
 * `ﬂ` starts the placeholder mermaid swaps entities for (`ﬂ°°59¶ß`), which a payload could forge.
 */
const ENTITIES: { readonly [char: string]: string } = {
  // Only ever indexed with a character SPECIAL matched, so no prototype member can be reached.
  ';': '#59;',
  '#': '#35;',
  ':': '#58;',
  '<': '#60;',
  '>': '#62;',
  '%': '#37;',
  '&': '#38;',
  ﬂ: '#64258;',
}

// Control characters, DEL and the Unicode line/paragraph separators would all break a line.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_BREAKING = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g
const SPECIAL = /[;#:<>%&ﬂ]/g

/** The longest label text, in characters before escaping, a payload string may contribute. */
export const MAX_LABEL_CHARS = 48

/**
 * Makes an arbitrary string safe as mermaid label text: one line, every syntax character replaced
 * by an entity, cut to `max` characters (code points) with an ellipsis. `keep: 'end'` keeps the
 * tail instead of the head (the informative part of a path). Whatever goes in, the result can
 * neither end the statement it sits in nor start a new one.
 */
export function sanitizeLabel(
  raw: string,
  max: number = MAX_LABEL_CHARS,
  keep: 'start' | 'end' = 'start',
): string {
  const oneLine = NEEDS_FOLDING.test(raw)
    ? raw.replace(LINE_BREAKING, ' ').replace(/\s+/g, ' ').trim()
    : raw
  return escapeLabel(truncate(oneLine, max, keep))
}

/** Escapes the syntax characters of an already single-line string (no truncation). */
export function escapeLabel(text: string): string {
  return text.replace(SPECIAL, (c) => ENTITIES[c] ?? c)
}

const SURROGATE = /[\ud800-\udfff]/
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_FOLDING = /[\u0000-\u001f\u007f\u0085]|[^\S ]| {2}|^ | $/

function truncate(text: string, max: number, keep: 'start' | 'end'): string {
  // Cheap checks first: code points ≤ UTF-16 units, so a short string never needs the split, and
  // without surrogates units are code points.
  if (text.length <= max) return text
  const room = Math.max(0, max - 1)
  if (!SURROGATE.test(text))
    return keep === 'end' ? `…${text.slice(text.length - room)}` : `${text.slice(0, room)}…`
  const points = Array.from(text)
  if (points.length <= max) return text
  return keep === 'end'
    ? `…${points.slice(points.length - room).join('')}`
    : `${points.slice(0, room).join('')}…`
}
