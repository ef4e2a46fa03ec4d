// A run made from another ("Run with this fault") names its parent; the parent must exist.
import { afterAll, describe, expect, it } from 'vitest'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('POST /api/runs with a parent', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(cleanup)

  it('[api] a parent that names no run is 404 run_not_found, and no run is created', async () => {
    const before = await api.json('/api/runs')
    const r = await api.json('/api/runs', post({ scenario: 'happy-path', parent: '0mxnosuchrun' }))
    expect(r).toMatchObject({ status: 404, body: { error: { code: 'run_not_found' } } })
    expect(r.body.error.message).toContain('parent')
    expect((await api.json('/api/runs')).body).toEqual(before.body)
  })

  it('[api] a run made from an existing one names it as its parent', async () => {
    const first = await api.json('/api/runs', post({ scenario: 'happy-path', rollouts: 3 }))
    expect(first.status).toBe(201)
    const child = await api.json(
      '/api/runs',
      post({ scenario: 'happy-path', rollouts: 3, parent: first.body.id }),
    )
    expect(child).toMatchObject({ status: 201, body: { parent: first.body.id } })
  })
})
