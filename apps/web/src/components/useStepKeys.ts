import { useEffect } from 'react'
import { isTypingTarget, keyBelongsToControl, stepKey } from '../lib/stepKey.ts'

/**
 * The page-wide stepping keys (←/→, Shift+←/→, Home/End, space) over a cursor: keys typed into a
 * field or owned by a focused control are left alone. Re-subscribes every render, so the handler
 * always sees the current step.
 */
export function useStepKeys(
  step: number,
  total: number,
  seek: (step: number) => void,
  togglePlay: () => void,
): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
      if (isTypingTarget(event.target) || keyBelongsToControl(event.target, event.key)) return
      const command = stepKey(event.key, event.shiftKey, step, total)
      if (!command) return
      event.preventDefault()
      if (command.kind === 'seek') seek(command.step)
      else togglePlay()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })
}
