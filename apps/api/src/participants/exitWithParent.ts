/**
 * When `CUTOVER_PARENT_STDIN=1` (set by `cutover fleet` and the tests that spawn participants),
 * the process exits once its stdin closes: the parent stopped or died, and no child outlives it.
 */
export function exitWithParent(): void {
  if (process.env['CUTOVER_PARENT_STDIN'] !== '1') return
  const exit = (): never => process.exit(0)
  process.stdin.on('end', exit)
  process.stdin.on('close', exit)
  process.stdin.on('error', exit)
  process.stdin.resume()
}
