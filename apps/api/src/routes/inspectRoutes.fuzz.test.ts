import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const { dir, cleanup } = tempDataDir()
const api = apiHarness(dir)
afterAll(cleanup)

const isEnvelope = (body: unknown): boolean => {
  const error = (body as { error?: { code?: unknown; message?: unknown; detail?: unknown } } | null)
    ?.error
  return (
    typeof error?.message === 'string' &&
    error.detail === error.message &&
    (ERROR_CODES as readonly unknown[]).includes(error.code)
  )
}

/**
 * Paths a hostile or careless caller might send: traversal, NUL bytes, the data directory itself.
 */
const paths = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '/',
    '.',
    '..',
    '../..',
    dir,
    `${dir}/runs`,
    `${dir}/../..`,
    '/proc/self',
    'a\u0000b',
    '~',
    '',
  ),
)

describe('fuzzed inspector input', () => {
  it('[fuzz] POST /api/directories: arbitrary bodies and paths are a 4xx envelope and record nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          paths.map((path) => JSON.stringify({ path })),
          fc.string(),
        ),
        async (body) => {
          const r = await api.json('/api/directories', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
          expect([400, 403, 413]).toContain(r.status)
          expect(isEnvelope(r.body)).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
    expect((await api.json('/api/directories')).body.directories).toEqual([])
    expect(
      existsSync(join(dir, 'directories')) ? readdirSync(join(dir, 'directories')) : [],
    ).toEqual([])
  })

  it('[fuzz] GET /api/diff and the directory views with arbitrary ids never fail with a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string(),
        fc.constantFrom('diff', 'directories', 'tables'),
        async (x, y, kind) => {
          const path =
            kind === 'diff'
              ? `/api/diff?a=${encodeURIComponent(x)}&b=${encodeURIComponent(y)}`
              : kind === 'directories'
                ? `/api/directories/${encodeURIComponent(x)}`
                : `/api/directories/${encodeURIComponent(x)}/sessions/${encodeURIComponent(y)}/tables`
          const response = await api.app.request(path)
          expect(response.status).toBeLessThan(500)
          expect(isEnvelope(await response.json())).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })
})
