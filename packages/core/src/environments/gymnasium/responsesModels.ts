import type { PyType } from '../pyjson/pydanticTypes.ts'
import {
  notRequired,
  optionalField,
  pyAny,
  pyBool,
  pyDict,
  pyFloatType,
  pyIntType,
  pyList,
  pyLiteral,
  pyModel,
  pyOptional,
  pyStr,
  pyTypedDict,
  pyUnion,
  withDefault,
} from '../pyjson/pydanticTypes.ts'
import { isPyDict } from '../pyjson/pyValues.ts'

/*
 * The OpenAI Responses API models as NeMo Gym's `openai_utils` declares them for its servers:
 * `NeMoGymResponseCreateParamsNonStreaming` (a pydantic copy of the create params, extra fields
 * forbidden) and `NeMoGymResponse` (the SDK's `Response` with Gym's output items). Field order,
 * defaults and extra-field handling follow the reference: SDK models keep extra fields after their
 * own, Gym's models drop them, TypedDicts keep only the keys given.
 */

const STATUS = pyLiteral('in_progress', 'completed', 'incomplete')
const anyDict = pyDict(pyAny)
const anyList = pyList(pyAny)

/**
 * Items and tools of the SDK's other kinds (hosted tools, MCP, computer use, …) pass through as
 * given: Cutover's environments never read them, and modelling every SDK class would only restate
 * the SDK. A dict with one of these `type`s is accepted unchanged; it sets no fields, so a modelled
 * member that also matches wins, and it adds no errors of its own when nothing matches.
 */
function passThroughTypes(tag: string, types: readonly string[]): PyType {
  return {
    tag,
    validate: (input) =>
      isPyDict(input) && typeof input['type'] === 'string' && types.includes(input['type'])
        ? { ok: true, value: input, exact: false, fieldsSet: 0 }
        : { ok: false, issues: [] },
  }
}

const inputText = pyTypedDict('ResponseInputTextParam', {
  text: { type: pyStr },
  type: { type: pyLiteral('input_text') },
})
const inputImage = pyTypedDict('ResponseInputImageParam', {
  detail: { type: pyLiteral('low', 'high', 'auto') },
  type: { type: pyLiteral('input_image') },
  file_id: notRequired(pyOptional(pyStr)),
  image_url: notRequired(pyOptional(pyStr)),
})
const inputFile = pyTypedDict('ResponseInputFileParam', {
  type: { type: pyLiteral('input_file') },
  file_data: notRequired(pyStr),
  file_id: notRequired(pyOptional(pyStr)),
  file_url: notRequired(pyStr),
  filename: notRequired(pyStr),
})
const inputContentList = pyList(pyUnion(inputText, inputImage, inputFile))

const outputText = pyModel('NeMoGymResponseOutputText', {
  annotations: { type: anyList },
  text: { type: pyStr },
  type: withDefault(pyLiteral('output_text'), 'output_text'),
  logprobs: optionalField(anyList),
})
const outputRefusal = pyModel('NeMoGymResponseOutputRefusal', {
  refusal: { type: pyStr },
  type: withDefault(pyLiteral('refusal'), 'refusal'),
})

const easyInputMessage = {
  content: { type: pyUnion(pyStr, inputContentList) },
  role: { type: pyLiteral('user', 'assistant', 'system', 'developer') },
  type: withDefault(pyLiteral('message'), 'message'),
}
const message = {
  content: { type: inputContentList },
  role: { type: pyLiteral('user', 'system', 'developer') },
  status: withDefault(STATUS, 'completed'),
  type: withDefault(pyLiteral('message'), 'message'),
}
const outputMessage = {
  id: { type: pyStr },
  content: { type: pyList(pyUnion(outputText, outputRefusal)) },
  role: withDefault(pyLiteral('assistant'), 'assistant'),
  status: withDefault(STATUS, 'completed'),
  type: withDefault(pyLiteral('message'), 'message'),
}
const functionCall = {
  arguments: { type: pyStr },
  call_id: { type: pyStr },
  name: { type: pyStr },
  type: withDefault(pyLiteral('function_call'), 'function_call'),
  id: optionalField(pyStr),
  status: optionalField(STATUS),
}
const functionCallOutput = {
  call_id: { type: pyStr },
  output: { type: pyUnion(pyStr, anyList) },
  type: withDefault(pyLiteral('function_call_output'), 'function_call_output'),
  id: optionalField(pyStr),
  status: optionalField(STATUS),
}
const reasoningItem = {
  id: { type: pyStr },
  summary: {
    type: pyList(
      pyModel(
        'NeMoGymSummary',
        { text: { type: pyStr }, type: { type: pyLiteral('summary_text') } },
        { extra: 'allow' },
      ),
    ),
  },
  type: withDefault(pyLiteral('reasoning'), 'reasoning'),
  encrypted_content: optionalField(pyStr),
  content: optionalField(
    pyList(
      pyModel(
        'Content',
        { text: { type: pyStr }, type: { type: pyLiteral('reasoning_text') } },
        { extra: 'allow' },
      ),
    ),
  ),
}
/**
 * `TokenIDLogProbMixin`: a training variant's token ids come first (the mixin is the last base).
 */
const tokenIds = {
  prompt_token_ids: { type: pyList(pyIntType) },
  generation_token_ids: { type: pyList(pyIntType) },
  generation_log_probs: { type: pyList(pyFloatType) },
}

/** `NeMoGymResponseInputItem`: the union pydantic validates each input and output item against. */
export const RESPONSE_ITEM: PyType = pyUnion(
  pyModel('NeMoGymEasyInputMessage', easyInputMessage),
  pyModel('NeMoGymMessage', message),
  pyModel('NeMoGymResponseOutputMessage', outputMessage),
  pyModel('NeMoGymResponseFunctionToolCall', functionCall),
  pyModel('NeMoGymFunctionCallOutput', functionCallOutput),
  pyModel('NeMoGymResponseReasoningItem', reasoningItem),
  pyModel('NeMoGymEasyInputMessageForTraining', { ...tokenIds, ...easyInputMessage }),
  pyModel('NeMoGymMessageForTraining', { ...tokenIds, ...message }),
  pyModel('NeMoGymResponseOutputMessageForTraining', { ...tokenIds, ...outputMessage }),
  pyModel('NeMoGymResponseFunctionToolCallForTraining', { ...tokenIds, ...functionCall }),
  pyModel('NeMoGymResponseReasoningItemForTraining', { ...tokenIds, ...reasoningItem }),
  passThroughTypes('OtherResponseItem', [
    'mcp_call',
    'mcp_list_tools',
    'mcp_approval_request',
    'mcp_approval_response',
    'file_search_call',
    'web_search_call',
    'computer_call',
    'computer_call_output',
    'image_generation_call',
    'code_interpreter_call',
    'local_shell_call',
    'local_shell_call_output',
    'custom_tool_call',
    'custom_tool_call_output',
    'item_reference',
  ]),
)

const OTHER_TOOLS = [
  'file_search',
  'computer_use_preview',
  'web_search',
  'web_search_preview',
  'web_search_2025_08_26',
  'web_search_preview_2025_03_11',
  'mcp',
  'code_interpreter',
  'image_generation',
  'local_shell',
  'shell',
  'custom',
  'apply_patch',
]

const functionToolParam = pyTypedDict('FunctionToolParam', {
  name: { type: pyStr },
  parameters: { type: pyOptional(anyDict) },
  strict: { type: pyOptional(pyBool) },
  type: { type: pyLiteral('function') },
  allowed_callers: notRequired(pyOptional(anyList)),
  defer_loading: notRequired(pyOptional(pyBool)),
  description: notRequired(pyOptional(pyStr)),
  output_schema: notRequired(pyOptional(anyDict)),
})
const functionTool = pyModel(
  'FunctionTool',
  {
    name: { type: pyStr },
    parameters: optionalField(anyDict),
    strict: optionalField(pyBool),
    type: { type: pyLiteral('function') },
    allowed_callers: optionalField(anyList),
    defer_loading: optionalField(pyBool),
    description: optionalField(pyStr),
    output_schema: optionalField(anyDict),
  },
  { extra: 'allow' },
)
const toolChoice = pyUnion(pyLiteral('none', 'auto', 'required'), anyDict)

/** `NeMoGymResponseCreateParamsNonStreaming`: the create params Gym validates on every request. */
export const RESPONSE_CREATE_PARAMS: PyType = pyModel(
  'NeMoGymResponseCreateParamsNonStreaming',
  {
    background: optionalField(pyBool),
    include: optionalField(pyList(pyStr)),
    input: { type: pyUnion(pyStr, pyList(RESPONSE_ITEM)) },
    instructions: optionalField(pyStr),
    max_output_tokens: optionalField(pyIntType),
    max_tool_calls: optionalField(pyIntType),
    metadata: optionalField(pyDict(pyStr)),
    model: optionalField(pyStr),
    parallel_tool_calls: withDefault(pyBool, true),
    previous_response_id: optionalField(pyStr),
    prompt: optionalField(
      pyTypedDict('ResponsePromptParam', {
        id: { type: pyStr },
        variables: notRequired(pyOptional(anyDict)),
        version: notRequired(pyOptional(pyStr)),
      }),
    ),
    reasoning: optionalField(
      pyTypedDict('Reasoning', {
        context: notRequired(pyAny),
        effort: notRequired(pyOptional(pyStr)),
        generate_summary: notRequired(pyOptional(pyStr)),
        mode: notRequired(pyAny),
        summary: notRequired(pyOptional(pyStr)),
      }),
    ),
    service_tier: optionalField(pyLiteral('auto', 'default', 'flex', 'scale', 'priority')),
    store: optionalField(pyBool),
    temperature: optionalField(pyFloatType),
    text: optionalField(
      pyTypedDict('ResponseTextConfigParam', {
        format: notRequired(anyDict),
        verbosity: notRequired(pyOptional(pyLiteral('low', 'medium', 'high'))),
      }),
    ),
    tool_choice: withDefault(toolChoice, 'auto'),
    tools: withDefault(
      pyList(pyUnion(functionToolParam, passThroughTypes('OtherToolParam', OTHER_TOOLS))),
      () => [],
    ),
    top_logprobs: optionalField(pyIntType),
    top_p: optionalField(pyFloatType),
    truncation: optionalField(pyLiteral('auto', 'disabled')),
    user: optionalField(pyStr),
    stream: optionalField(pyLiteral(false)),
  },
  { extra: 'forbid' },
)

const sdkModel = (name: string, fields: Parameters<typeof pyModel>[1]) =>
  pyModel(name, fields, { extra: 'allow' })

const textFormat = pyUnion(
  sdkModel('ResponseFormatText', { type: { type: pyLiteral('text') } }),
  sdkModel('ResponseFormatTextJSONSchemaConfig', {
    name: { type: pyStr },
    schema: { type: anyDict },
    type: { type: pyLiteral('json_schema') },
    description: optionalField(pyStr),
    strict: optionalField(pyBool),
  }),
  sdkModel('ResponseFormatJSONObject', { type: { type: pyLiteral('json_object') } }),
)

/**
 * `NeMoGymResponse`: the SDK's `Response` (extra fields kept) with Gym's output items and usage.
 */
export const RESPONSE: PyType = sdkModel('NeMoGymResponse', {
  id: { type: pyStr },
  created_at: { type: pyFloatType },
  error: optionalField(
    sdkModel('ResponseError', { code: { type: pyStr }, message: { type: pyStr } }),
  ),
  incomplete_details: optionalField(
    sdkModel('IncompleteDetails', {
      reason: optionalField(pyLiteral('max_output_tokens', 'content_filter')),
    }),
  ),
  instructions: optionalField(pyUnion(pyStr, pyList(RESPONSE_ITEM))),
  metadata: optionalField(pyDict(pyStr)),
  model: { type: pyStr },
  object: { type: pyLiteral('response') },
  output: { type: pyList(RESPONSE_ITEM) },
  parallel_tool_calls: { type: pyBool },
  temperature: optionalField(pyFloatType),
  tool_choice: { type: toolChoice },
  tools: { type: pyList(pyUnion(functionTool, passThroughTypes('OtherTool', OTHER_TOOLS))) },
  top_p: optionalField(pyFloatType),
  background: optionalField(pyBool),
  completed_at: optionalField(pyFloatType),
  conversation: optionalField(sdkModel('Conversation', { id: { type: pyStr } })),
  max_output_tokens: optionalField(pyIntType),
  max_tool_calls: optionalField(pyIntType),
  moderation: optionalField(pyAny),
  previous_response_id: optionalField(pyStr),
  prompt: optionalField(
    sdkModel('ResponsePrompt', {
      id: { type: pyStr },
      variables: optionalField(anyDict),
      version: optionalField(pyStr),
    }),
  ),
  prompt_cache_key: optionalField(pyStr),
  prompt_cache_options: optionalField(pyAny),
  prompt_cache_retention: optionalField(pyStr),
  reasoning: optionalField(
    sdkModel('Reasoning', {
      context: optionalField(pyAny),
      effort: optionalField(pyStr),
      generate_summary: optionalField(pyStr),
      mode: optionalField(pyAny),
      summary: optionalField(pyStr),
    }),
  ),
  safety_identifier: optionalField(pyStr),
  service_tier: optionalField(pyStr),
  status: optionalField(pyStr),
  text: optionalField(
    sdkModel('ResponseTextConfig', {
      format: optionalField(textFormat),
      verbosity: optionalField(pyLiteral('low', 'medium', 'high')),
    }),
  ),
  top_logprobs: optionalField(pyIntType),
  truncation: optionalField(pyLiteral('auto', 'disabled')),
  usage: optionalField(
    sdkModel('NeMoGymResponseUsage', {
      input_tokens: { type: pyIntType },
      input_tokens_details: {
        type: sdkModel('NeMoGymResponseInputTokensDetails', {
          cached_tokens: { type: pyIntType },
          cache_write_tokens: optionalField(pyIntType),
        }),
      },
      output_tokens: { type: pyIntType },
      output_tokens_details: {
        type: sdkModel('NeMoGymResponseOutputTokensDetails', {
          reasoning_tokens: { type: pyIntType },
        }),
      },
      total_tokens: { type: pyIntType },
    }),
  ),
  user: optionalField(pyStr),
})
