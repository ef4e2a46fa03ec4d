import { fileURLToPath } from 'node:url'

/** The repository root, found relative to this file (the API runs from source through tsx). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const WEB_ROOT = `${REPO_ROOT}apps/web`
export const WEB_DIST = `${WEB_ROOT}/dist`
/** The `cutover` command's entry point, for spawning participants and workers as processes. */
export const CUTOVER_BIN = `${REPO_ROOT}apps/api/bin/cutover.js`
