import { appendFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import type { EventsRange, RunView, StepView } from '@cutover/core/contracts'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { startRecording } from '../record/startRecording.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const { dir, cleanup } = tempDataDir()
const servers: Server[] = []
afterAll(async () => {
  for (const s of servers) s.closeAllConnections()
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  cleanup()
})

/** A participant that answers every control call 200 with its route (no Cutover process needed). */
async function echoParticipant(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ route: req.url, state: 'paused', ready_to_commit: true }))
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const post = (url: string, path: string, body: object) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer tok-live-0001' },
    body: JSON.stringify(body),
  })

describe('a recorded run in the server', () => {
  let alive = true
  const api = apiHarness(dir, { recordingPollMs: 0, processAlive: () => alive })
  const store = createFileRunStore(dir, (p, create) => new NodeCheckpointDirectory(p, { create }))

  it('[record.live] is listed while recording, its events follow the recording, its step and range views answer; a killed recorder is closed, its half-written line reported', async () => {
    const upstream = await echoParticipant()
    const recording = await startRecording({
      runId: 'rec00000live',
      store,
      upstreams: [
        { name: 'agent', url: new URL(upstream) },
        { name: 'policy', url: new URL(upstream) },
      ],
      host: '127.0.0.1',
      runName: 'live test',
      maxBodyBytes: 4096,
      secrets: [],
      createdAt: '2026-12-01T00:00:00.000Z',
      cwd: dir,
      pid: 4242,
    })
    const [agent, policy] = recording.proxies.map((p) => p.url) as [string, string]
    await post(agent, '/ng-control/v1/agent-checkpoint/prepare', { checkpoint_id: 'ck-live' })
    const listed = (await api.json('/api/runs')).body.runs as RunView[]
    const run = listed.find((r) => r.id === 'rec00000live')
    expect(run).toMatchObject({ kind: 'recorded', status: 'running', scenario: 'recorded' })
    expect(run?.recording?.proxies.map((p) => p.name)).toEqual(['agent', 'policy'])
    api.runs.refreshRecordings()
    expect((await api.json('/api/runs/rec00000live')).body.events).toBe(1)

    // A live SSE client sees the next exchange as the recording grows.
    const stream = await api.app.request('/api/runs/rec00000live/events', {
      headers: { accept: 'text/event-stream' },
    })
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('event: trace\nid: 1\n')
    await post(policy, '/ng-control/v1/model-admission/pause', { checkpoint_id: 'ck-live' })
    api.runs.refreshRecordings()
    const second = new TextDecoder().decode((await reader.read()).value)
    expect(second).toContain('id: 2\n')
    expect(second).toContain('"type":"model.pause"')
    await reader.cancel()

    const step = (await api.json('/api/runs/rec00000live/steps/2')).body as StepView
    expect(step.event).toMatchObject({
      from: 'controller',
      to: 'policy_model',
      type: 'model.pause',
    })
    expect(step.participants.find((p) => p.id === 'policy_model')).toMatchObject({
      phase: 'prepared',
      admission: 'paused',
    })
    expect(step.diagram.source).toContain('model.pause')
    const range = (await api.json('/api/runs/rec00000live/events?from=0&limit=10'))
      .body as EventsRange
    expect(range.events.map((e) => e.payload['path'])).toEqual([
      '/ng-control/v1/agent-checkpoint/prepare',
      '/ng-control/v1/model-admission/pause',
    ])
    expect(range.events[0]?.payload['request']).toEqual({ checkpoint_id: 'ck-live' })
    expect(JSON.stringify(range)).not.toContain('tok-live-0001')

    // The recorder dies mid-line: the server closes the recording, keeping every line before it.
    appendFileSync(store.recordingPath('rec00000live'), '{"participant": "agent", "meth')
    alive = false
    api.runs.refreshRecordings()
    const closed = (await api.json('/api/runs/rec00000live')).body as RunView
    expect(closed.status).toBe('complete')
    expect(closed.events).toBe(2)
    expect(closed.recording?.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/line 3 is cut short .*the 2 exchanges before it are kept/),
      expect.stringMatching(/the recorder \(pid 4242\) stopped without closing the recording/),
    ])
    // And a restarted server lists it as it was left.
    const again = apiHarness(dir, { recordingPollMs: 0 })
    const reread = (await again.json('/api/runs/rec00000live')).body as RunView
    expect(reread).toMatchObject({ status: 'complete', events: 2, kind: 'recorded' })
    expect(reread.recording?.problems).toHaveLength(2)
    await recording.close().catch(() => undefined)
  })
})
