import { spawn } from 'node:child_process'
import { fetchJson } from '../control/fetchJson.ts'
import { COORDINATOR_SOCKET_ENV } from '../model/ModelWorkerPool.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'

/** A model worker as `GET /` of a coordinator lists it. */
export interface ModelWorkerInfo {
  readonly worker: number
  readonly pid: number | null
  readonly connected: boolean
}

/** The workers behind the model at `url` (`GET /`). */
export async function modelWorkers(url: string): Promise<readonly ModelWorkerInfo[]> {
  const r = await fetchJson(`${url}/`, { method: 'GET', timeoutMs: 10_000 })
  const workers = r.ok ? (r.body as { workers?: unknown } | null)?.workers : undefined
  return Array.isArray(workers) ? (workers as ModelWorkerInfo[]) : []
}

/**
 * A `cutover model-worker --index K` started against a coordinator's socket: its pid and how it
 * ended.
 */
export interface StartedWorker {
  readonly pid: number
  /** Resolves with the exit code once the process ended (1: its registration was refused). */
  readonly exited: Promise<number | null>
  stderr(): string
  stop(): void
}

/**
 * Starts a (replacement) model worker for slot `index` of the coordinator listening on `socket`.
 */
export function startModelWorker(index: number, socket: string): StartedWorker {
  const child = spawn(process.execPath, [CUTOVER_BIN, 'model-worker', '--index', String(index)], {
    env: { ...process.env, [COORDINATOR_SOCKET_ENV]: socket, CUTOVER_PARENT_STDIN: '1' },
    stdio: ['pipe', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t))
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  return {
    pid: child.pid ?? 0,
    exited,
    stderr: () => err,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    },
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until worker `index` of the model at `url` is (dis)connected as asked. */
export async function waitForWorker(
  url: string,
  index: number,
  connected: boolean,
  timeoutMs = 30_000,
): Promise<ModelWorkerInfo | undefined> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const w = (await modelWorkers(url)).find((x) => x.worker === index)
    if (w !== undefined && w.connected === connected) return w
    await sleep(50)
  }
  return undefined
}
