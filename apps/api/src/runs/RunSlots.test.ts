import { describe, expect, it } from 'vitest'
import { createRunSlots } from './RunSlots.ts'

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false
  void promise.then(() => (done = true))
  await new Promise((resolve) => setImmediate(resolve))
  return done
}

describe('run slots', () => {
  it('[bounded] at most `limit` hold a slot; the rest queue in order, then the queue refuses', async () => {
    const slots = createRunSlots(2, 2)
    const [a, b, c, d] = [slots.reserve(), slots.reserve(), slots.reserve(), slots.reserve()]
    expect(slots.reserve()).toBeUndefined()
    expect([slots.running(), slots.queued()]).toEqual([2, 2])
    expect([a, b, c, d].map((t) => t?.position())).toEqual([0, 0, 1, 2])
    expect(await settled(a!.granted)).toBe(true)
    expect(await settled(c!.granted)).toBe(false)
    a!.release()
    expect(await settled(c!.granted)).toBe(true)
    expect(await settled(d!.granted)).toBe(false)
    expect(d!.position()).toBe(1)
    // A re-simulation always waits its turn, whatever the queue holds.
    const e = slots.wait()
    expect(e.position()).toBe(2)
    expect(slots.reserve()).toBeUndefined()
    b!.release()
    c!.release()
    expect(await settled(d!.granted)).toBe(true)
    expect(await settled(e.granted)).toBe(true)
    expect([slots.running(), slots.queued()]).toEqual([2, 0])
  })

  it('[bounded] leaving the queue frees the place and lets the waiter move on; releasing twice is harmless', async () => {
    const slots = createRunSlots(1, 3)
    const a = slots.reserve()!
    const b = slots.reserve()!
    const c = slots.reserve()!
    b.release()
    expect(await settled(b.granted)).toBe(true)
    expect(c.position()).toBe(1)
    b.release()
    expect([slots.running(), slots.queued()]).toEqual([1, 1])
    a.release()
    a.release()
    expect(await settled(c.granted)).toBe(true)
    expect([slots.running(), slots.queued()]).toEqual([1, 0])
  })

  it('[bounded] limits are whole numbers', () => {
    expect(() => createRunSlots(0, 1)).toThrow()
    expect(() => createRunSlots(1.5, 1)).toThrow()
    expect(() => createRunSlots(1, -1)).toThrow()
  })
})
