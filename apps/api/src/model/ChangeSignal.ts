/**
 * Wakes long-polls when a participant's state changed (an in-flight call finished, a boundary was
 * committed): `wait` resolves at the next `notify` or after `ms`, whichever comes first.
 */
export class ChangeSignal {
  #waiters: (() => void)[] = []

  notify(): void {
    const waiters = this.#waiters
    this.#waiters = []
    // Each wake removes itself from `waiters`: iterate a copy, or every other waiter is skipped
    // and, no longer in the current list, sleeps until its timeout (a straggler's abort went unseen
    // for 60 s).
    for (const wake of [...waiters]) wake()
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms))
      const waiters = this.#waiters
      function done(): void {
        clearTimeout(timer)
        const at = waiters.indexOf(done)
        if (at >= 0) waiters.splice(at, 1)
        resolve()
      }
      waiters.push(done)
    })
  }
}
