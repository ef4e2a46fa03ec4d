import type { GymRouteModels } from '../gymnasium/GymRouteModel.ts'
import { verifyRoute } from '../gymnasium/verifyModels.ts'
import { pyBool, pyIntType, pyModel } from '../pyjson/pydanticTypes.ts'

const ROUTES = {
  '/seed_session': {
    request: pyModel('StatefulCounterSeedSessionRequest', { initial_count: { type: pyIntType } }),
  },
  '/increment_counter': {
    request: pyModel('IncrementCounterRequest', { count: { type: pyIntType } }),
    response: pyModel('IncrementCounterResponse', { success: { type: pyBool } }),
  },
  // The handler declares no body parameter: FastAPI never reads the body.
  '/get_counter_value': {
    request: undefined,
    response: pyModel('GetCounterValueResponse', { count: { type: pyIntType } }),
  },
  '/verify': verifyRoute('StatefulCounterVerifyRequest', { expected_count: { type: pyIntType } }),
} as const

/** The session-state counter's reference request and response models. */
export const counterRouteModels: GymRouteModels = (path) =>
  Object.hasOwn(ROUTES, path) ? ROUTES[path as keyof typeof ROUTES] : undefined
