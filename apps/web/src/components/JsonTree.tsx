import type { JsonValue } from '@cutover/core/contracts'

const same = (a: JsonValue | undefined, b: JsonValue | undefined) =>
  JSON.stringify(a) === JSON.stringify(b)

/** Arrays and objects with more entries than this start collapsed (an RNG state has 625 words). */
const OPEN_LIMIT = 24

function Leaf({ value }: { value: JsonValue }) {
  if (value === null) return <span className="json-null">null</span>
  if (typeof value === 'string') return <span className="json-string">"{value}"</span>
  if (typeof value === 'number') return <span className="json-number">{value}</span>
  return <span className="json-bool">{String(value)}</span>
}

/**
 * A collapsible JSON viewer. With `compare`, values that differ from the same path in `compare`
 * are marked, so "now" beside "at prepare" reads as a diff.
 */
export function JsonTree({
  value,
  compare,
  name,
  depth = 0,
}: {
  value: JsonValue
  compare?: JsonValue | undefined
  name?: string
  depth?: number
}) {
  const changed = compare !== undefined && !same(value, compare)
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null
  if (value === null || typeof value !== 'object') {
    return (
      <div className={`json-line${changed ? ' is-changed' : ''}`}>
        {label}
        <Leaf value={value} />
      </div>
    )
  }
  const entries: [string, JsonValue][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value)
  const other = (key: string): JsonValue | undefined => {
    if (compare === undefined || compare === null || typeof compare !== 'object')
      return compare === undefined ? undefined : null
    return Array.isArray(compare)
      ? compare[Number(key)]
      : (compare as { [k: string]: JsonValue })[key]
  }
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return (
    <details
      className={`json-node${changed ? ' is-changed' : ''}`}
      open={depth < 3 && entries.length <= OPEN_LIMIT}
    >
      <summary>
        {label}
        {brackets[0]}
        <span className="muted">
          {' '}
          {entries.length} {Array.isArray(value) ? 'items' : 'keys'}{' '}
        </span>
        {brackets[1]}
      </summary>
      <div className="json-children">
        {entries.map(([key, child]) => (
          <JsonTree
            key={key}
            name={key}
            value={child}
            compare={compare === undefined ? undefined : (other(key) ?? null)}
            depth={depth + 1}
          />
        ))}
      </div>
    </details>
  )
}
