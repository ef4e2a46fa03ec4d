import type { CutoverError } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import type { ControllerTask, ControllerWait } from './ControllerHost.ts'
import type { Reply } from './Fleet.ts'

/** Controller work that may wait for the fleet. */
export type Work<T = void> = Generator<ControllerWait, T>

const isPending = <T>(reply: Reply<T>): reply is PromiseLike<Result<T, CutoverError>> =>
  typeof (reply as { then?: unknown }).then === 'function'

/** A fleet answer: at once when the fleet answers at once, else after waiting for it. */
export function* ask<T>(reply: Reply<T>): Work<Result<T, CutoverError>> {
  if (!isPending(reply)) return reply
  let answer: Result<T, CutoverError> | undefined
  yield reply.then((r) => {
    answer = r
  })
  return answer as Result<T, CutoverError>
}

/** `work` with its step ends dropped: it runs as one step (it still waits for the fleet). */
export function* atOnce<T>(work: Work<T>): Work<T> {
  for (;;) {
    const next = work.next()
    if (next.done === true) return next.value
    if (next.value !== undefined) yield next.value
  }
}

/**
 * Runs `work` now, to its end when the fleet answers at once; if it must wait for an answer, the
 * rest of it continues as a task (`runTask`) once the answer is in.
 */
export function runNow(work: Work, runTask: (task: ControllerTask) => void): void {
  for (;;) {
    const next = work.next()
    if (next.done === true) return
    if (next.value !== undefined) {
      const pending = next.value
      runTask(
        (function* (): Work {
          yield pending
          yield* work
        })(),
      )
      return
    }
  }
}
