/**
 * `CUTOVER_CONTROL_TOKEN`, or undefined when unset or empty (then no control routes are mounted).
 */
export function controlTokenFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env['CUTOVER_CONTROL_TOKEN']
  return token === undefined || token === '' ? undefined : token
}
