import type { JsonValue } from '@cutover/core'

/**
 * The Responses-API fields the reference servers require of a `response` (FastAPI validates them).
 */
const RESPONSE_DEFAULTS = {
  id: 'resp_cutover',
  created_at: 0,
  model: 'policy',
  object: 'response',
  parallel_tool_calls: false,
  tool_choice: 'auto',
  tools: [],
}

/**
 * A scripted-turn body as the HTTP resources servers accept it: the simulator hands its in-process
 * participant a bare `{output}` response; over HTTP the reference validation needs the complete
 * Responses-API object (and message items their `id` and `annotations`).
 */
export function gymRequestBody(body: JsonValue): JsonValue {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body
  const response = body['response']
  if (
    response === null ||
    response === undefined ||
    typeof response !== 'object' ||
    Array.isArray(response)
  )
    return body
  const output = Array.isArray(response['output']) ? response['output'] : []
  const items = output.map((item, i): JsonValue => {
    if (
      item === null ||
      typeof item !== 'object' ||
      Array.isArray(item) ||
      item['type'] !== 'message'
    )
      return item
    const content = Array.isArray(item['content'])
      ? item['content'].map((part) =>
          part !== null && typeof part === 'object' && !Array.isArray(part)
            ? { annotations: [], ...part }
            : part,
        )
      : []
    return { id: `msg_${i}`, ...item, content }
  })
  return { ...body, response: { ...RESPONSE_DEFAULTS, ...response, output: items } }
}
