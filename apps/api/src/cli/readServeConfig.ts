import { parseArgs } from 'node:util'
import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'
import { isLoopbackHost } from '../http/guardHost.ts'
import type { RunLimits } from '../runs/runLimits.ts'
import { readRunLimits } from '../runs/runLimits.ts'

/** Where and how `cutover serve` listens, and the work it accepts. */
export interface ServeConfig {
  readonly host: string
  readonly port: number
  readonly limits: RunLimits
  readonly controlToken: string | undefined
}

/**
 * Reads `cutover serve [--host ADDRESS]` and its environment (PORT, HOST, CUTOVER_CONTROL_TOKEN,
 * the CUTOVER_MAX_* limits). A bind beyond loopback needs the control token. An error is the one
 * usage line to print.
 */
export function readServeConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Result<ServeConfig, string> {
  let flag: string | undefined
  try {
    flag = parseArgs({
      args: [...argv],
      options: { host: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values.host
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error))
  }
  const port = Number(env.PORT ?? 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return err(`PORT must be an integer from 0 to 65535, got ${env.PORT}`)
  const host = (flag ?? env.HOST ?? '127.0.0.1').trim()
  if (host === '') return err('--host/HOST must name an address')
  const controlToken = env.CUTOVER_CONTROL_TOKEN === '' ? undefined : env.CUTOVER_CONTROL_TOKEN
  if (!isLoopbackHost(host) && controlToken === undefined) {
    return err(
      `binding to ${host}, beyond loopback, needs CUTOVER_CONTROL_TOKEN set (docs/security.md)`,
    )
  }
  const limits = readRunLimits(env)
  if (!limits.ok) return limits
  return ok({ host, port, limits: limits.value, controlToken })
}
