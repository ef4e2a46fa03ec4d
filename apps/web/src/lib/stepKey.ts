/** What a key press does to the cursor. */
export type StepCommand =
  { readonly kind: 'seek'; readonly step: number } | { readonly kind: 'toggle-play' }

/**
 * Maps a key to a scrubber command: ←/→ step, Shift+←/→ jump ten, Home/End go to the ends, space
 * toggles play. Returns null for keys the scrubber does not own.
 */
export function stepKey(
  key: string,
  shift: boolean,
  step: number,
  total: number,
): StepCommand | null {
  const clamp = (n: number) => Math.max(0, Math.min(total, n))
  switch (key) {
    case 'ArrowRight':
      return { kind: 'seek', step: clamp(step + (shift ? 10 : 1)) }
    case 'ArrowLeft':
      return { kind: 'seek', step: clamp(step - (shift ? 10 : 1)) }
    case 'Home':
      return { kind: 'seek', step: 0 }
    case 'End':
      return { kind: 'seek', step: total }
    case ' ':
    case 'Spacebar':
      return { kind: 'toggle-play' }
    default:
      return null
  }
}

const TYPING_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'password', 'tel'])

/** True when the key goes to something the user is typing in (then global shortcuts stay out). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  if (target instanceof HTMLInputElement) return TYPING_INPUTS.has(target.type)
  return target.closest('[contenteditable=""], [contenteditable="true"]') !== null
}

/**
 * True when a focused control already gives this key a meaning of its own: space presses a button
 * or link, arrows move between tabs. The page-wide shortcut then leaves the key alone.
 */
export function keyBelongsToControl(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false
  if (
    (key === ' ' || key === 'Spacebar') &&
    target.closest('button, a, summary, [role="button"], input[type="checkbox"]')
  )
    return true
  if (
    (key === 'ArrowLeft' || key === 'ArrowRight' || key === 'Home' || key === 'End') &&
    target.closest('[role="tab"]')
  )
    return true
  return false
}
