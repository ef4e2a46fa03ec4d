/**
 * `^[A-Za-z0-9][A-Za-z0-9._-]*$`: rollout ids, server names, checkpoint ids
 * (docs/protocol.md §2).
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
