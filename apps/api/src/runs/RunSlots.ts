/** One claim on a simulation slot: granted at once, or after the claims queued before it. */
export interface SlotTicket {
  /** Resolves once the slot is this ticket's. */
  readonly granted: Promise<void>
  /** 0 while simulating (or released), else the place in the queue (1 = next). */
  position(): number
  /**
   * Frees the slot, or leaves the queue (then `granted` resolves too, so the waiter moves on and
   * finds it was cancelled); safe to call more than once.
   */
  release(): void
}

/**
 * At most `limit` simulations at once, the rest waiting in a first-in first-out queue of at most
 * `queueLimit` (docs/security.md: bounded work). Only the simulations a request starts are refused
 * when the queue is full (`reserve`); re-simulations a view needs always wait their turn (`wait`).
 */
export interface RunSlots {
  readonly limit: number
  readonly queueLimit: number
  /** A ticket, or undefined when every slot is busy and the queue is full. */
  reserve(): SlotTicket | undefined
  /** A ticket, queued however long the queue is. */
  wait(): SlotTicket
  /** Simulations holding a slot now. */
  running(): number
  /** Tickets waiting for a slot. */
  queued(): number
}

interface Waiter {
  readonly grant: () => void
  state: 'queued' | 'running' | 'released'
}

/**
 * A counting semaphore with a FIFO queue; `limit` and `queueLimit` are positive/non-negative
 * integers.
 */
export function createRunSlots(limit: number, queueLimit: number): RunSlots {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`simulation slots must be a positive integer, got ${limit}`)
  if (!Number.isInteger(queueLimit) || queueLimit < 0)
    throw new Error(`queue length must be a non-negative integer, got ${queueLimit}`)
  let active = 0
  const queue: Waiter[] = []

  const grantNext = (): void => {
    while (active < limit && queue.length > 0) {
      const next = queue.shift()
      if (next === undefined) return
      next.state = 'running'
      active += 1
      next.grant()
    }
  }

  const ticket = (): SlotTicket => {
    let grant: () => void = () => undefined
    const granted = new Promise<void>((resolve) => {
      grant = resolve
    })
    const waiter: Waiter = { grant, state: 'queued' }
    queue.push(waiter)
    grantNext()
    return {
      granted,
      position: () => (waiter.state === 'queued' ? queue.indexOf(waiter) + 1 : 0),
      release() {
        if (waiter.state === 'running') active -= 1
        else if (waiter.state === 'queued') {
          queue.splice(queue.indexOf(waiter), 1)
          grant()
        }
        waiter.state = 'released'
        grantNext()
      },
    }
  }

  return {
    limit,
    queueLimit,
    reserve: () => (active < limit || queue.length < queueLimit ? ticket() : undefined),
    wait: ticket,
    running: () => active,
    queued: () => queue.length,
  }
}
