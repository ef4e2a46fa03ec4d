// Starts benchSimulationWorker.ts in a worker thread: registers tsx's loader first, as
// runs/simulationWorkerBootstrap.js does, so it runs the same under the CLI and under vitest.
import { register } from 'tsx/esm/api'

register()
await import('./benchSimulationWorker.ts')
