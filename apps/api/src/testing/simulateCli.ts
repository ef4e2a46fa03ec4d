import type { SimulationResult, WorkplaceData } from '@cutover/core'
import { runSimulateCommand } from '../cli/simulateCommand.ts'

/**
 * `cutover simulate` in process (data directory `root`): exit code, output and the finished
 * simulation.
 */
export function simulateCli(
  root: string,
  workplace: WorkplaceData,
  argv: readonly string[],
): { code: number; stdout: string; stderr: string; result: SimulationResult | undefined } {
  let stdout = ''
  let stderr = ''
  let result: SimulationResult | undefined
  const code = runSimulateCommand(
    argv,
    { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    { dataDir: root, loadWorkplace: () => workplace, onResult: (r) => (result = r) },
  )
  return { code, stdout, stderr, result }
}
