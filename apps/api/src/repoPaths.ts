import { fileURLToPath } from 'node:url'

/** The repository root, found relative to this file (the API runs from source through tsx). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const WEB_ROOT = `${REPO_ROOT}apps/web`
export const WEB_DIST = `${WEB_ROOT}/dist`
