import { useEffect, useRef, useState } from 'react'

/** Playback speeds offered; 1× is one step every 600 ms. */
export const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32] as const
const BASE_MS = 600

/**
 * Play/pause over the steps: while playing, moves one step per tick and stops at the end. The
 * cursor lives in the URL, so the caller passes `seek` and the current position.
 */
export function usePlayback(step: number, total: number, seek: (step: number) => void) {
  const [playing, setPlaying] = useState(false)
  const [speed, setSpeed] = useState<number>(1)
  const latest = useRef({ step, total, seek })
  latest.current = { step, total, seek }

  useEffect(() => {
    if (!playing) return
    const timer = window.setInterval(() => {
      const { step: at, total: end, seek: go } = latest.current
      if (at >= end) {
        setPlaying(false)
        return
      }
      go(at + 1)
    }, BASE_MS / speed)
    return () => window.clearInterval(timer)
  }, [playing, speed])

  const toggle = () => {
    // playing from the end starts over, as a media player does
    if (!playing && latest.current.step >= latest.current.total) latest.current.seek(0)
    setPlaying((p) => !p)
  }
  return { playing, speed, setSpeed, toggle, pause: () => setPlaying(false) }
}
