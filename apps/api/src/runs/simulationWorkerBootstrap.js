// Starts simulationWorker.ts in a worker thread: registers tsx's loader first, so the TypeScript
// entry runs the same under `node apps/api/bin/cutover.js` and under vitest (whose own transform
// does not reach worker threads), after a plain `npm ci` on Node 20.
import { register } from 'tsx/esm/api'

register()
await import('./simulationWorker.ts')
