/** What a CLI command may touch: its output streams. Commands return their exit code. */
export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
}

/** Exit codes (docs/cli.md). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const

/** Thrown by argument parsing: a usage error, printed as one line, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}
