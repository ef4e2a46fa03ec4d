import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('.', import.meta.url))

/**
 * The dev proxy to `npm run dev`'s API. The API answers only its own Host and refuses state changes
 * from other origins (docs/security.md): the proxy names the API as host, and speaks as the API's
 * origin for pages this Vite server itself serves.
 */
const API = 'http://127.0.0.1:8787'
const toApi = {
  target: API,
  changeOrigin: true,
  configure: (proxy: {
    on(
      event: 'proxyReq',
      listener: (
        req: { setHeader(name: string, value: string): void },
        incoming: { headers: Record<string, string | string[] | undefined> },
      ) => void,
    ): void
  }) =>
    proxy.on('proxyReq', (req, incoming) => {
      if (incoming.headers.origin === `http://${String(incoming.headers.host)}`)
        req.setHeader('origin', API)
    }),
}

export default defineConfig({
  root: 'apps/web',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4000 },
  server: { proxy: { '/api': toApi, '/gym': toApi } },
  test: {
    root: repo,
    // `npm run faults` (scripts/faults.mjs) runs the fault campaign on its own: real processes,
    // killed and restarted, one file after another; the unit run leaves it out.
    ...(process.env['CUTOVER_FAULTS'] === '1'
      ? {
          include: ['apps/api/src/faults/**/*.faults.test.ts'],
          fileParallelism: false,
        }
      : {
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '**/*.faults.test.ts'],
        }),
    environment: 'node',
    restoreMocks: true,
    // No test or hook races the clock: on a machine whose cores are busy a 1,000-rollout run or a
    // fleet of processes takes several times as long. The ceilings only stop a hung test.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    teardownTimeout: 120_000,
  },
})
