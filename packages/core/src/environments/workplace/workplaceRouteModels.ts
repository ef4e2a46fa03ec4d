import type { GymRouteModels } from '../gymnasium/GymRouteModel.ts'
import { verifyRoute } from '../gymnasium/verifyModels.ts'
import { pyDict, pyIntType, pyList, pyModel, pyStr, pyUnion } from '../pyjson/pydanticTypes.ts'

const SEED = { request: pyModel('BaseSeedSessionRequest', {}) }
const VERIFY = verifyRoute('WorkbenchVerifyRequest', {
  ground_truth: { type: pyUnion(pyList(pyDict(pyStr)), pyStr) },
  id: { type: pyIntType },
  category: { type: pyStr },
  environment_name: { type: pyStr },
})
// The catch-all `POST /{path}` takes any JSON object as the tool's keyword arguments.
const TOOL = { request: pyModel('WorkbenchRequest', {}, { extra: 'allow' }) }

/** The Workplace Assistant server's reference request and response models. */
export const workplaceRouteModels: GymRouteModels = (path) =>
  path === '/seed_session'
    ? SEED
    : path === '/verify'
      ? VERIFY
      : /^\/[^/]+$/.test(path)
        ? TOOL
        : undefined
