import { describe, expect, it } from 'vitest'
import { parseTimestamp } from './pyTimestamp.ts'

describe('[wa-timestamp] pd.Timestamp for the tool arguments', () => {
  it('parses ISO-like dates and date-times and orders them by instant', () => {
    expect(parseTimestamp('2023-11-30').date).toBe('2023-11-30')
    expect(parseTimestamp('2023-11-30 23:59:00').ns > parseTimestamp('2023-11-30').ns).toBe(true)
    expect(parseTimestamp('2023-11-30T23:59:00').ns).toBe(parseTimestamp('2023-11-30 23:59:00').ns)
    expect(parseTimestamp('2024/2/29').date).toBe('2024-02-29')
  })
  it('reads integers as nanoseconds since the epoch, as pandas does', () => {
    expect(parseTimestamp(0).date).toBe('1970-01-01')
    expect(parseTimestamp(60).date).toBe('1970-01-01')
    expect(parseTimestamp(-1).date).toBe('1969-12-31')
    expect(parseTimestamp(1_700_000_000_000_000_000).date).toBe('2023-11-14')
  })
  it('raises ValueError for unparseable or out-of-range strings and TypeError for other types', () => {
    expect(() => parseTimestamp('garbage')).toThrow(
      'Unknown datetime string format, unable to parse: garbage',
    )
    expect(() => parseTimestamp('2023-02-30')).toThrow(/unable to parse/)
    expect(() => parseTimestamp([1])).toThrow(/Cannot convert input/)
  })
})
