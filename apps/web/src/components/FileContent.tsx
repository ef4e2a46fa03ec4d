import type { JsonValue } from '@cutover/core/contracts'
import { JsonTree } from './JsonTree.tsx'

/** JSON as a tree; JSONL as one tree per line; anything else as text. */
export function FileContent({ path, text }: { path: string; text: string }) {
  try {
    if (path.endsWith('.jsonl')) {
      const lines = text.split('\n').filter((l) => l.trim())
      return (
        <div className="json-view">
          {lines.map((line, i) => (
            <JsonTree key={i} name={String(i + 1)} value={JSON.parse(line) as JsonValue} />
          ))}
        </div>
      )
    }
    return (
      <div className="json-view">
        <JsonTree value={JSON.parse(text) as JsonValue} />
      </div>
    )
  } catch {
    // a corrupted file is exactly what one wants to look at: show its raw text
    return <pre className="raw-file">{text}</pre>
  }
}
