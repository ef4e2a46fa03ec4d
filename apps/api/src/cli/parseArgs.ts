import { parseArgs as parseUtilArgs } from 'node:util'
import { UsageError } from '../process/io.ts'
import { didYouMean, integerTextProblem } from '@cutover/core/contracts'

/** What a command accepts: options that take a value, and boolean switches (e.g. `--json`). */
export interface ArgSpec {
  readonly values?: readonly string[]
  readonly switches?: readonly string[]
  /** How many positional arguments are allowed (default 0). */
  readonly positionals?: number
}

/** Parsed arguments: option values by name (`--seed`), switches that were given, positionals. */
export interface ParsedArgs {
  readonly values: ReadonlyMap<string, string>
  readonly switches: ReadonlySet<string>
  readonly positionals: readonly string[]
}

/**
 * Parses `--name value`, `--name=value` and switches with `node:util`'s `parseArgs` (its tokens, so
 * the messages stay ours); throws `UsageError` (one line, exit 2) on an unknown option, a repeated
 * option, a missing value or a surplus positional argument. `--help` is left to the caller (check
 * it first, so help works even next to bad arguments).
 */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const valueNames = spec.values ?? []
  const switchNames = spec.switches ?? []
  const options: { [name: string]: { type: 'string' | 'boolean' } } = {}
  for (const name of valueNames) options[name.slice(2)] = { type: 'string' }
  for (const name of switchNames) options[name.slice(2)] = { type: 'boolean' }
  const { tokens } = parseUtilArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const values = new Map<string, string>()
  const switches = new Set<string>()
  const positionals: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (positionals.length >= (spec.positionals ?? 0))
        throw new UsageError(`unexpected argument ${token.value}`)
      positionals.push(token.value)
      continue
    }
    // The option as typed (`--name`, `-x`, `-abc`, `--`), up to any `=value`.
    const raw = argv[token.index] as string
    const eq = raw.indexOf('=')
    const name = eq > 0 ? raw.slice(0, eq) : raw
    if (token.kind === 'option-terminator') throw new UsageError(`unknown option ${name}`)
    if (switchNames.includes(name)) {
      if (token.inlineValue === true) throw new UsageError(`${name} takes no value`)
      switches.add(name)
      continue
    }
    if (!valueNames.includes(name)) {
      const near = didYouMean(name, [...valueNames, ...switchNames])
      throw new UsageError(
        `unknown option ${name}${near === undefined ? '' : ` (did you mean ${near}?)`}`,
      )
    }
    if (values.has(name)) throw new UsageError(`${name} given twice`)
    if (token.value === undefined) throw new UsageError(`${name} needs a value`)
    values.set(name, token.value)
  }
  return { values, switches, positionals }
}

/** True when `--help` or `-h` appears anywhere (help wins over every other argument). */
export const wantsHelp = (argv: readonly string[]): boolean =>
  argv.includes('--help') || argv.includes('-h')

/**
 * A non-negative decimal integer option as a safe JS number in `[min, max]`; `UsageError`
 * otherwise. Only plain digits are accepted (no sign, exponent, hex or spaces).
 */
export function parseIntegerOption(name: string, text: string, min: number, max: number): number {
  const problem = integerTextProblem(text, min, max)
  if (problem !== null) throw new UsageError(`${name} ${problem}`)
  return Number(text)
}
