import { isRecord } from './fastapiValidation.ts'

/**
 * Gymnasium base `extract_text(response)`: the ""-joined text of every `message` output item, its
 * `content` when a string, else each `output_text` part's `text`. Reasoning and function calls are
 * ignored.
 */
export function extractText(response: unknown): string {
  if (!isRecord(response) || !Array.isArray(response['output'])) return ''
  let text = ''
  for (const item of response['output'] as unknown[]) {
    if (!isRecord(item) || item['type'] !== 'message') continue
    const content = item['content']
    if (typeof content === 'string') text += content
    else if (Array.isArray(content)) {
      for (const part of content as unknown[]) {
        if (isRecord(part) && part['type'] === 'output_text' && typeof part['text'] === 'string')
          text += part['text']
      }
    }
  }
  return text
}
