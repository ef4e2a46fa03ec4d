import type { PyType } from '../pyjson/pydanticTypes.ts'

/**
 * What FastAPI knows about one reference route: the body model it validates before the handler runs
 * (none: the route reads no body at all), and the `response_model` the handler's answer is
 * serialised through. With `answerFromRequest`, the answer is built from the validated request's
 * dump plus the handler's fields, as Gym's `/verify` answers
 * `BaseVerifyResponse(**body.model_dump(), reward=…)`.
 */
export interface GymRouteModel {
  readonly request: PyType | undefined
  readonly response?: PyType
  readonly answerFromRequest?: boolean
}

/** The route models of one environment server, by path (`/verify`, `/reset`, a tool name). */
export type GymRouteModels = (path: string) => GymRouteModel | undefined
