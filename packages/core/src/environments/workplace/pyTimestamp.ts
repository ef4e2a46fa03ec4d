import type { JsonValue } from '../../json.ts'
import { PyError, pyTypeName } from './python.ts'

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

/** A parsed `pd.Timestamp`: nanoseconds since the epoch (naive), and its calendar date. */
export interface PyTimestamp {
  readonly ns: bigint
  readonly date: string
}

/**
 * `pd.Timestamp(value)` for the forms the tools meet: ISO-like dates and date-times (`YYYY-MM-DD[
 * T]HH:MM[:SS[.ffffff]]`, `/` or `-` separators, year-month, year) and integers (nanoseconds since
 * the epoch). Anything else raises ValueError, as pandas does for unparseable strings.
 */
export function parseTimestamp(value: JsonValue | undefined): PyTimestamp {
  if (typeof value !== 'string') return parseUncached(value)
  // Tools parse the same cell strings on every search and replay: parse each string once.
  const hit = parsedStrings.get(value)
  if (hit) return hit
  const parsed = parseUncached(value)
  // Bounded, because agent-supplied bounds are strings too; the base tables' dates fit many times
  // over.
  if (parsedStrings.size >= PARSED_STRINGS_LIMIT) parsedStrings.clear()
  parsedStrings.set(value, parsed)
  return parsed
}

const PARSED_STRINGS_LIMIT = 50_000
const parsedStrings = new Map<string, PyTimestamp>()

function parseUncached(value: JsonValue | undefined): PyTimestamp {
  if (typeof value === 'number' && Number.isInteger(value)) {
    const ns = BigInt(value)
    const days = Number((ns >= 0n ? ns : ns - 86_399_999_999_999n) / 86_400_000_000_000n)
    return { ns, date: civilDate(days) }
  }
  if (typeof value !== 'string')
    throw new PyError(
      'TypeError',
      `Cannot convert input [${String(value)}] of type <class '${pyTypeName(value)}'> to Timestamp`,
    )
  const fail = () =>
    new PyError('ValueError', `Unknown datetime string format, unable to parse: ${value}`)
  const m =
    /^\s*(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?)?\s*$/.exec(
      value,
    )
  if (!m) throw fail()
  const year = Number(m[1])
  const month = m[2] ? Number(m[2]) : 1
  const day = m[3] ? Number(m[3]) : 1
  const hour = m[4] ? Number(m[4]) : 0
  const minute = m[5] ? Number(m[5]) : 0
  const second = m[6] ? Number(m[6]) : 0
  const frac = BigInt((m[7] ?? '').padEnd(9, '0'))
  const dim = month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
  if (month < 1 || month > 12 || day < 1 || day > dim || hour > 23 || minute > 59 || second > 59)
    throw fail()
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  return Object.freeze({
    ns: BigInt(ms) * 1_000_000n + frac,
    date: `${m[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  })
}

/**
 * The proleptic Gregorian date `days` after 1970-01-01 (Hinnant's civil_from_days), without Date.
 */
function civilDate(days: number): string {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  )
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}
