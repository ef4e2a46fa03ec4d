import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { CUTOVER_BIN } from '../repoPaths.ts'

/** One participant server running as its own OS process. */
export interface ParticipantProcess {
  readonly child: ChildProcess
  readonly pid: number
  readonly url: string
  readonly port: number
  /** Everything it wrote to stderr so far (for error messages). */
  stderr(): string
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>
}

/**
 * Starts `cutover <args>` as a child process (loopback, `CUTOVER_PARENT_STDIN=1` so it exits when
 * this process's end of its stdin closes — the parent stopping or dying) and resolves once its
 * first stdout line names the URL it listens on. `env` adds to this process's environment (the
 * control token travels here, never on the command line).
 */
export function spawnParticipant(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 30_000,
): Promise<ParticipantProcess> {
  const child = spawn(process.execPath, [CUTOVER_BIN, ...args], {
    env: { ...process.env, ...env, CUTOVER_PARENT_STDIN: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr
    .setEncoding('utf8')
    .on('data', (t: string) => (err += t.length + err.length > 65_536 ? '' : t))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (graceMs = 2000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(0)
      reject(
        new Error(
          `cutover ${args.join(' ')}: no "listening on" line within ${timeoutMs} ms; stderr: ${err.trim()}`,
        ),
      )
    }, timeoutMs)
    const early = (code: number | null): void => {
      clearTimeout(timer)
      reject(
        new Error(
          `cutover ${args.join(' ')} exited with ${String(code)} before listening; stderr: ${err.trim()}`,
        ),
      )
    }
    child.once('exit', early)
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      out += t
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out)
      if (match === null || child.pid === undefined) return
      clearTimeout(timer)
      child.off('exit', early)
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      resolve({
        child,
        pid: child.pid,
        url: match[1] as string,
        port: Number(match[2]),
        stderr: () => err,
        stop,
      })
    })
  })
}
