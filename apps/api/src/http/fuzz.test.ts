import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '@cutover/core/contracts'
import { JSON_DELETE, apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const TOKEN = 'fuzz-token'
const { dir, cleanup } = tempDataDir()
const api = apiHarness(dir, { controlToken: TOKEN })
afterAll(cleanup)

/** Bodies: any JSON, JSON-looking garbage, or plain text. */
const bodies = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        scenario: fc.oneof(fc.constantFrom('happy-path', 'nope'), fc.string()),
        seed: fc.jsonValue(),
        rollouts: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.string(),
)

const isEnvelope = (body: unknown): boolean => {
  const error = (body as { error?: { code?: unknown; message?: unknown; detail?: unknown } } | null)
    ?.error
  return (
    typeof error?.message === 'string' &&
    error.detail === error.message &&
    (ERROR_CODES as readonly unknown[]).includes(error.code)
  )
}

describe('fuzzed API input', () => {
  it('[fuzz] POST /api/runs answers 201 or a 4xx envelope, and a refusal creates nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const before = (await api.json('/api/runs')).body
        const r = await api.json('/api/runs', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        if (r.status === 201) {
          await api.runs.idle()
          await api.app.request(`/api/runs/${String(r.body.id)}`, JSON_DELETE)
          return
        }
        expect([400, 404, 413]).toContain(r.status)
        expect(isEnvelope(r.body)).toBe(true)
        expect((await api.json('/api/runs')).body).toEqual(before)
      }),
      { numRuns: 150 },
    )
  })

  it('[fuzz] run paths with arbitrary segments never fail with a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.constantFrom(
          '',
          '/events',
          '/steps/',
          '/sessions/',
          '/lineage?step=',
          '/checkpoints/',
          '/checkpoints/x/files/',
        ),
        async (segment, tail) => {
          const response = await api.app.request(
            `/api/runs/${encodeURIComponent(segment)}${tail}${encodeURIComponent(segment)}`,
          )
          expect(response.status).toBeLessThan(500)
          expect(isEnvelope(await response.json())).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('[fuzz] control bodies are strict: any malformed body is a 4xx envelope and the fence stays idle', async () => {
    const routes = ['prepare', 'status', 'commit', 'restore', 'resume', 'retire']
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), bodies, async (route, body) => {
        const r = await api.app.request(
          `/gym/counter/ng-control/v1/resources-checkpoint/${route}`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
            body,
          },
        )
        expect(r.status).toBeGreaterThanOrEqual(400)
        expect(r.status).toBeLessThan(500)
        expect(isEnvelope(await r.json())).toBe(true)
      }),
      { numRuns: 200 },
    )
    const caps = await api.json('/gym/counter/ng-control/v1/capabilities', {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(caps.body.phase).toBe('idle')
  })

  it('[fuzz] Gym routes answer arbitrary bodies in reference shapes, never a 500', async () => {
    const targets = [
      '/gym/blackjack/reset',
      '/gym/blackjack/step',
      '/gym/counter/seed_session',
      '/gym/counter/increment_counter',
      '/gym/counter/verify',
      '/gym/workplace/seed_session',
      '/gym/workplace/email_search_emails',
      '/gym/workplace/verify',
      '/gym/counter/aggregate_metrics',
    ]
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), bodies, async (path, body) => {
        const r = await api.app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        expect([200, 400, 404, 409, 422]).toContain(r.status)
        // Reference shapes: a JSON body, and FastAPI's `detail` on every refusal but the identity
        // 409.
        const parsed = (await r.json()) as { detail?: unknown } | null
        if (r.status === 422 || r.status === 404) expect(parsed?.detail).toBeDefined()
      }),
      { numRuns: 300 },
    )
  })
})
