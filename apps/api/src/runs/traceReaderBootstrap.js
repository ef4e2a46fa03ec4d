// Starts traceReaderWorker.ts in a worker thread with tsx's loader registered (as
// simulationWorkerBootstrap.js does for simulations).
import { register } from 'tsx/esm/api'

register()
await import('./traceReaderWorker.ts')
