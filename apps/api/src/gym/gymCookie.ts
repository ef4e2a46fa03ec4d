import type { EnvName } from '@cutover/core'

/** Each environment's session cookie (docs/http-api.md): one jar can hold a session in each. */
export const gymCookieName = (env: EnvName): string => `cutover_${env}_session`

/** Session ids are uuids we minted; anything else in the cookie is ignored and replaced. */
export const SESSION_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
