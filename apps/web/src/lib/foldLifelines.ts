/** The lifeline hidden lifelines are folded into. */
export const OTHERS_ID = 'others'

const DECLARATION = /^participant ([A-Za-z0-9_]+)(?: as (.+))?$/
const MESSAGE = /^([A-Za-z0-9_]+)(-[-x>)]*)([A-Za-z0-9_]+): (.*)$/s
const NOTE = /^Note (over|left of|right of) ([A-Za-z0-9_]+)(?:,([A-Za-z0-9_]+))?: (.*)$/s

/** The lifelines a diagram source declares, in order: `{ id, label }`. */
export function declaredLifelines(source: string): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = []
  for (const line of source.split('\n')) {
    const m = DECLARATION.exec(line)
    if (m) out.push({ id: m[1] as string, label: m[2] ?? (m[1] as string) })
  }
  return out
}

/**
 * The diagram with the `hidden` lifelines folded into one `others` lifeline drawn last: their
 * declarations go, every message and note naming one names `others` instead. No message is
 * dropped or reordered, so the n-th drawn message is still the n-th of the source (the
 * highlight and the step map stay right) — a message between two hidden lifelines becomes a
 * message of `others` to itself.
 */
export function foldLifelines(source: string, hidden: ReadonlySet<string>): string {
  if (hidden.size === 0) return source
  const declared = declaredLifelines(source).map((l) => l.id)
  const folded = declared.filter((id) => hidden.has(id))
  if (folded.length === 0) return source
  const of = (id: string) => (hidden.has(id) ? OTHERS_ID : id)
  const lines = source.split('\n')
  const out: string[] = []
  let lastDeclaration = -1
  for (const line of lines) {
    const declaration = DECLARATION.exec(line)
    if (declaration) {
      if (!hidden.has(declaration[1] as string)) out.push(line)
      lastDeclaration = out.length
      continue
    }
    const message = MESSAGE.exec(line)
    if (message) {
      out.push(`${of(message[1] as string)}${message[2]}${of(message[3] as string)}: ${message[4]}`)
      continue
    }
    const note = NOTE.exec(line)
    if (note) {
      const a = of(note[2] as string)
      const b = note[3] === undefined ? undefined : of(note[3])
      const span = b === undefined || b === a ? a : `${a},${b}`
      out.push(`Note ${note[1]} ${span}: ${note[4]}`)
      continue
    }
    out.push(line)
  }
  const label = folded.length === 1 ? (folded[0] as string) : `${folded.length} others`
  out.splice(Math.max(1, lastDeclaration), 0, `participant ${OTHERS_ID} as ${label}`)
  return out.join('\n')
}
