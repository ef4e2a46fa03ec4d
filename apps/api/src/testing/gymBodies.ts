/** A complete Responses API `response` (the reference servers validate every required field). */
export const responseOf = (output: unknown[]): Record<string, unknown> => ({
  id: 'resp_1',
  created_at: 0,
  model: 'm',
  object: 'response',
  output,
  parallel_tool_calls: false,
  tool_choice: 'auto',
  tools: [],
})

/** A `response` whose one assistant message says `text`. */
export const say = (text: string): Record<string, unknown> =>
  responseOf([
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ])

/** Create params with one user message. */
export const RCP = { input: [{ role: 'user', content: 'Deal me in.' }] }
