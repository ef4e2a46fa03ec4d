import { describe, expect, it } from 'vitest'
import { MAX_LABEL_CHARS, sanitizeLabel } from './sanitizeLabel.ts'

describe('sanitizeLabel', () => {
  it('[sanitise-entities] replaces every mermaid syntax character by its #code; entity', () => {
    expect(sanitizeLabel('a;b#c:d<e>f%g&h')).toBe('a#59;b#35;c#58;d#60;e#62;f#37;g#38;h')
    expect(sanitizeLabel('ﬂ°°59¶ß')).toBe('#64258;°°59¶ß')
  })

  it('[sanitise-one-line] folds line breaks, tabs and Unicode separators into single spaces', () => {
    expect(sanitizeLabel(' a\r\nb\tc\u2028d\u2029e\u0085f  g ')).toBe('a b c d e f g')
  })

  it('[sanitise-truncate] cuts at code points with an ellipsis, keeping the head or the tail', () => {
    expect(sanitizeLabel('x'.repeat(100))).toBe(`${'x'.repeat(MAX_LABEL_CHARS - 1)}…`)
    expect(sanitizeLabel('resources/counter/r1.a1.json', 12, 'end')).toBe('…/r1.a1.json')
    const emoji = sanitizeLabel('😀'.repeat(10), 5)
    expect(Array.from(emoji)).toEqual(['😀', '😀', '😀', '😀', '…'])
    expect(sanitizeLabel('short', 5)).toBe('short')
  })
})
