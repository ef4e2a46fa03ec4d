import type { JsonValue } from '@cutover/core/contracts'
import { statePicture } from '../lib/sessionState.ts'

/** A Blackjack hand with its RNG position, or a counter's value; nothing for other shapes. */
export function StatePictureView({ state }: { state: JsonValue }) {
  const picture = statePicture(state)
  if (picture.kind === 'blackjack') {
    return (
      <div className="state-picture">
        <div>
          <span className="muted">player</span>{' '}
          {picture.player.map((c, i) => (
            <span key={i} className="playing-card">
              {c}
            </span>
          ))}
        </div>
        <div>
          <span className="muted">dealer</span>{' '}
          {picture.dealer.map((c, i) => (
            <span key={i} className="playing-card">
              {c}
            </span>
          ))}
        </div>
        <div>
          <span className="muted">RNG position</span>{' '}
          <span className="mono">{picture.rngPosition ?? '—'}</span> / 624
        </div>
      </div>
    )
  }
  if (picture.kind === 'counter') {
    return (
      <div className="state-picture">
        <span className="muted">counter</span> <span className="big-number">{picture.value}</span>
      </div>
    )
  }
  return null
}
