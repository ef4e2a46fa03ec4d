import type { PyField, PyType } from '../pyjson/pydanticTypes.ts'
import { pyFloatType, pyModel } from '../pyjson/pydanticTypes.ts'
import type { GymRouteModel } from './GymRouteModel.ts'
import { RESPONSE, RESPONSE_CREATE_PARAMS } from './responsesModels.ts'

/** `BaseRunRequest`: the create params every Gym request carries. */
export const RUN_REQUEST_FIELDS = {
  responses_create_params: { type: RESPONSE_CREATE_PARAMS },
} as const satisfies Record<string, PyField>

/** `BaseVerifyRequest`: the create params and the policy's response. */
export const VERIFY_REQUEST_FIELDS = {
  ...RUN_REQUEST_FIELDS,
  response: { type: RESPONSE },
} as const satisfies Record<string, PyField>

/** `BaseVerifyResponse`: the rollout row Gym stores (the request's other fields are dropped). */
export const BASE_VERIFY_RESPONSE: PyType = pyModel('BaseVerifyResponse', {
  ...VERIFY_REQUEST_FIELDS,
  reward: { type: pyFloatType },
})

/** A `/verify` route whose request model adds `fields` to `BaseVerifyRequest`. */
export function verifyRoute(
  name: string,
  fields: Readonly<Record<string, PyField>>,
): GymRouteModel {
  return {
    request: pyModel(name, { ...VERIFY_REQUEST_FIELDS, ...fields }),
    response: BASE_VERIFY_RESPONSE,
    answerFromRequest: true,
  }
}
