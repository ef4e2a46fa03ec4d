import type { GymRouteModels } from '../gymnasium/GymRouteModel.ts'
import { RUN_REQUEST_FIELDS, VERIFY_REQUEST_FIELDS } from '../gymnasium/verifyModels.ts'
import {
  pyAny,
  pyBool,
  pyDict,
  pyFloatType,
  pyModel,
  pyOptional,
  pyStr,
} from '../pyjson/pydanticTypes.ts'

const ROUTES = {
  // Cutover's `seed` is an extra field to the reference model, which ignores it.
  '/reset': { request: pyModel('EnvResetRequest', RUN_REQUEST_FIELDS) },
  '/step': {
    request: pyModel('EnvStepRequest', VERIFY_REQUEST_FIELDS),
    response: pyModel('EnvStepResponse', {
      observation: { type: pyOptional(pyStr) },
      reward: { type: pyFloatType },
      terminated: { type: pyBool },
      truncated: { type: pyBool },
      info: { type: pyDict(pyAny) },
    }),
  },
} as const

/** The Gymnasium Blackjack server's reference request and response models. */
export const blackjackRouteModels: GymRouteModels = (path) =>
  Object.hasOwn(ROUTES, path) ? ROUTES[path as keyof typeof ROUTES] : undefined
