import { describe, expect, it } from 'vitest'
import { ChangeSignal } from './ChangeSignal.ts'

describe('ChangeSignal', () => {
  it('[fleet-process] one notify wakes every waiter, however many wait', async () => {
    const signal = new ChangeSignal()
    const woken: number[] = []
    const waits = Array.from({ length: 7 }, (_, i) => signal.wait(60_000).then(() => woken.push(i)))
    signal.notify()
    await Promise.all(waits)
    expect(woken.sort()).toEqual([0, 1, 2, 3, 4, 5, 6])
  })
})
