import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Server, Socket } from 'node:net'
import type { PolicyModel } from '@cutover/core'
import { CUTOVER_BIN } from '../repoPaths.ts'
import type { ProcessNote } from '../participants/processTrace.ts'
import type { ChangeSignal } from './ChangeSignal.ts'
import type { PolicyInput, scriptedPolicy } from './scriptedPolicy.ts'

/** The environment variable naming the coordinator's Unix socket (docs/protocol.md §4.6). */
export const COORDINATOR_SOCKET_ENV = 'NG_CHECKPOINT_COORDINATOR_SOCKET'

/** Upstream (worker → coordinator) and downstream messages, one JSON object per line. */
export type WorkerMessage =
  | {
      readonly type: 'register'
      readonly worker: number
      readonly pid: number
      readonly url: string
    }
  | {
      readonly type: 'ack'
      readonly worker: number
      readonly seq: number
      readonly inflight: number
    }
export type CoordinatorMessage =
  | { readonly type: 'state'; readonly seq: number; readonly state: 'accepting' | 'closed' }
  | { readonly type: 'rejected'; readonly code: string; readonly message: string }

/** One worker slot as the coordinator sees it. */
export interface WorkerSlot {
  readonly worker: number
  pid: number | null
  url: string | null
  socket: Socket | null
  /** The closed-state sequence this worker acknowledged last. */
  acked: number
  /**
   * Ever registered (the first registration is the boot handshake of a slot the model counts as
   * connected).
   */
  joined: boolean
}

type Decision = ReturnType<typeof scriptedPolicy>

/**
 * The admission coordinator in front of N policy model worker OS processes (docs/protocol.md §4.6).
 * The coordinator process holds the one `PolicyModel` (admission truth, in-flight tickets, ledger);
 * each worker (`cutover model-worker`) generates on its own loopback port and speaks newline-
 * delimited JSON over the Unix socket: `register` (accepted at boot, later only while admission is
 * accepting, else `worker_registration_rejected`), `ack` of each closed-state sequence. A worker
 * whose socket closed is disconnected: a close while it is gone is `missing_workers`, and a frozen
 * member that never acknowledges keeps the model from `paused`: never an implicit zero.
 */
export class ModelWorkerPool {
  readonly slots: WorkerSlot[]
  readonly #model: PolicyModel
  readonly #signal: ChangeSignal
  readonly #note: ProcessNote
  readonly #socketPath: string
  readonly #children: ChildProcess[] = []
  #server: Server | null = null
  #seq = 0
  #state: 'accepting' | 'closed' = 'accepting'
  #next = 0

  constructor(
    model: PolicyModel,
    workers: number,
    socketPath: string,
    signal: ChangeSignal,
    note: ProcessNote,
  ) {
    this.#model = model
    this.#signal = signal
    this.#note = note
    this.#socketPath = socketPath
    this.slots = Array.from({ length: workers }, (_, worker) => ({
      worker,
      pid: null,
      url: null,
      socket: null,
      acked: -1,
      joined: false,
    }))
  }

  get socketPath(): string {
    return this.#socketPath
  }

  /** Listens on the socket, starts the workers and resolves once every one registered. */
  async start(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<void> {
    rmSync(this.#socketPath, { force: true })
    this.#server = createServer((socket) => this.#accept(socket))
    await new Promise<void>((resolve, reject) => {
      this.#server?.once('error', reject)
      this.#server?.listen(this.#socketPath, () => resolve())
    })
    for (const slot of this.slots) {
      const child = spawn(
        process.execPath,
        [CUTOVER_BIN, 'model-worker', '--index', String(slot.worker)],
        {
          env: {
            ...process.env,
            ...env,
            [COORDINATOR_SOCKET_ENV]: this.#socketPath,
            CUTOVER_PARENT_STDIN: '1',
          },
          stdio: ['pipe', 'ignore', 'inherit'],
        },
      )
      this.#children.push(child)
    }
    const until = Date.now() + timeoutMs
    while (this.slots.some((s) => s.socket === null)) {
      if (Date.now() > until)
        throw new Error(
          `model workers ${this.slots
            .filter((s) => s.socket === null)
            .map((s) => s.worker)
            .join(', ')} did not register within ${timeoutMs} ms`,
        )
      await this.#signal.wait(100)
    }
  }

  /** Stops the workers and the socket. */
  stop(): void {
    for (const child of this.#children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    this.#server?.close()
    rmSync(this.#socketPath, { force: true })
  }

  /** The workers for `GET /` and capabilities. */
  describe(): { worker: number; pid: number | null; connected: boolean; acked_seq: number }[] {
    return this.slots.map((s) => ({
      worker: s.worker,
      pid: s.pid,
      connected: s.socket !== null,
      acked_seq: s.acked,
    }))
  }

  /**
   * Per worker: connected, and whether it acknowledged the current closed state (status answers).
   */
  perWorker(): {
    [worker: string]: { connected: boolean; acknowledged: boolean; pid: number | null }
  } {
    return Object.fromEntries(
      this.slots.map((s) => [
        String(s.worker),
        {
          connected: s.socket !== null,
          acknowledged: this.#state === 'closed' && s.acked === this.#seq,
          pid: s.pid,
        },
      ]),
    )
  }

  /** The next connected worker, round robin (undefined when none is). */
  pick(): number | undefined {
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[(this.#next + i) % this.slots.length] as WorkerSlot
      if (slot.socket !== null && slot.url !== null) {
        this.#next = (slot.worker + 1) % this.slots.length
        return slot.worker
      }
    }
    return undefined
  }

  /** Generates on worker `k` (its own process); aborted (null) once `aborted()` turns true. */
  async generate(
    worker: number,
    input: PolicyInput,
    aborted: () => boolean,
  ): Promise<{ decision: Decision } | null> {
    const url = this.slots[worker]?.url
    if (url === null || url === undefined) return null
    const cancel = new AbortController()
    let done = false
    const watch = (async () => {
      while (!done) {
        if (aborted()) cancel.abort()
        await this.#signal.wait(200)
      }
    })()
    try {
      const r = await fetch(`${url}/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
        signal: cancel.signal,
      })
      if (!r.ok) return null
      return (await r.json()) as { decision: Decision }
    } catch {
      return null
    } finally {
      done = true
      this.#signal.notify()
      await watch
    }
  }

  /**
   * Admission closed (pause succeeded): every connected worker is sent the closed state to
   * acknowledge.
   */
  closed(): void {
    if (this.#state === 'closed') return
    this.#seq += 1
    this.#state = 'closed'
    this.#broadcast({ type: 'state', seq: this.#seq, state: 'closed' })
  }

  /** Admission reopened (resume). */
  reopened(): void {
    if (this.#state === 'accepting') return
    this.#seq += 1
    this.#state = 'accepting'
    this.#broadcast({ type: 'state', seq: this.#seq, state: 'accepting' })
  }

  #broadcast(message: CoordinatorMessage): void {
    for (const slot of this.slots) slot.socket?.write(`${JSON.stringify(message)}\n`)
  }

  #accept(socket: Socket): void {
    let buffer = ''
    let slot: WorkerSlot | undefined
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffer += chunk
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 1)
        let message: WorkerMessage
        try {
          message = JSON.parse(line) as WorkerMessage
        } catch {
          socket.destroy()
          return
        }
        if (message.type === 'register') slot = this.#register(socket, message)
        else if (
          message.type === 'ack' &&
          slot !== undefined &&
          message.seq === this.#seq &&
          this.#state === 'closed'
        ) {
          // The controller's trace shows the acknowledgement (it reads it from the status answer).
          if (this.#model.workerAck(slot.worker).ok) slot.acked = message.seq
          this.#signal.notify()
        }
      }
    })
    const gone = (): void => {
      if (slot === undefined || slot.socket !== socket) return
      slot.socket = null
      slot.url = null
      this.#model.workerDisconnect(slot.worker)
      this.#signal.notify()
    }
    socket.on('close', gone)
    socket.on('error', gone)
  }

  #register(
    socket: Socket,
    m: Extract<WorkerMessage, { type: 'register' }>,
  ): WorkerSlot | undefined {
    const slot = this.slots[m.worker]
    const refuse = (code: string, message: string): undefined => {
      this.#note('policy_model', 'model.worker_register', { worker: m.worker, pid: m.pid }, code, {
        from: `model_worker_${m.worker}`,
      })
      socket.end(
        `${JSON.stringify({ type: 'rejected', code, message } satisfies CoordinatorMessage)}\n`,
      )
      return undefined
    }
    if (slot === undefined)
      return refuse(
        'worker_registration_rejected',
        `no worker slot ${m.worker} (the model runs ${this.slots.length})`,
      )
    // A slot's first registration is its boot; a later one replaces a worker and goes through the
    // coordinator, which refuses it while admission is not accepting (§4.6), and while the slot's
    // worker is still connected.
    if (slot.joined && this.#state !== 'accepting')
      return refuse(
        'worker_registration_rejected',
        `worker ${m.worker} cannot join while admission is closed (checkpoint in progress)`,
      )
    if (slot.socket !== null)
      return refuse('worker_registration_rejected', `worker ${m.worker} is already connected`)
    if (slot.joined) {
      const joined = this.#model.workerRegister(m.worker)
      if (!joined.ok) return refuse(joined.error.code, joined.error.message)
    }
    slot.joined = true
    slot.socket = socket
    slot.pid = m.pid
    slot.url = m.url
    slot.acked = -1
    this.#note('policy_model', 'model.worker_register', { worker: m.worker, pid: m.pid }, 'ok', {
      from: `model_worker_${m.worker}`,
    })
    socket.write(
      `${JSON.stringify({ type: 'state', seq: this.#seq, state: this.#state } satisfies CoordinatorMessage)}\n`,
    )
    this.#signal.notify()
    return slot
  }
}
