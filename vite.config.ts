import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root: 'apps/web',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4000 },
  server: { proxy: { '/api': 'http://127.0.0.1:8787', '/gym': 'http://127.0.0.1:8787' } },
  test: {
    root: repo,
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    restoreMocks: true,
    testTimeout: 60_000,
  },
})
