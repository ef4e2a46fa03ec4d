import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerType } from '@hono/node-server'
import { afterEach, describe, expect, it } from 'vitest'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { resolveRunConfig, runSimulation } from '@cutover/core'
import { commitSampleCheckpoint, createSampleCheckpoint } from '@cutover/core/testing'
import { INSPECT_ROOTS_FILE } from '../directories/inspectRoots.ts'
import { createNodeAppDeps } from '../nodeAppDeps.ts'
import { startServer } from '../server.ts'
import { runInspectCommand } from './inspectCommand.ts'

const roots: string[] = []
const servers: ServerType[] = []
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'cutover-inspect-'))
  roots.push(root)
  return root
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function committedDir(): string {
  const root = join(tempRoot(), 'ck')
  const result = commitSampleCheckpoint(
    new NodeCheckpointDirectory(root),
    nodeDigest,
    createSampleCheckpoint(6),
  )
  expect(result.ok).toBe(true)
  return root
}

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = ''
  let stderr = ''
  let started = false
  const code = await runInspectCommand(
    argv,
    { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    {
      env,
      serveWeb: false,
      onServer: (server) => {
        started = true
        servers.push(server)
      },
    },
  )
  return { code, stdout, stderr, started }
}

describe('cutover inspect', () => {
  it('[cli] starts a server when none answers and prints the directory run URL', async () => {
    const dir = committedDir()
    const dataDir = tempRoot()
    const r = await run([dir, '--port', '0'], { CUTOVER_DATA_DIR: dataDir })
    expect(r.code).toBe(0)
    expect(r.started).toBe(true)
    const url = r.stdout.trim().split('\n').at(-1) as string
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/runs\/dir[0-9a-f]{16}$/)
    expect(r.stdout).toContain('valid')
    const api = url.replace('/runs/', '/api/runs/')
    const view = (await (await fetch(api)).json()) as { kind: string; path: string; valid: boolean }
    expect(view).toMatchObject({ kind: 'directory', path: dir, valid: true })
    expect(readFileSync(join(dataDir, INSPECT_ROOTS_FILE), 'utf8')).toBe(`${dir}\n`)
  })

  it('[cli] a generation-safe checkpoint: its generation cut and token-store segment are named, with digest status', async () => {
    const out = tempRoot()
    runSimulation(resolveRunConfig({ scenario: 'generation-safe-cut', seed: '0' }), {
      digest: nodeDigest,
      workplace: loadNodeWorkplaceData(),
      openDirectory: (id) => new NodeCheckpointDirectory(join(out, id)),
    })
    const r = await run([join(out, 'ck-1'), '--port', '0'], { CUTOVER_DATA_DIR: tempRoot() })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('1 generation cut, 1 token-store segment (digests ok), valid')
  })

  it('[cli] asks a running server (same data directory) instead of starting one', async () => {
    const dir = committedDir()
    const dataDir = tempRoot()
    const { server, url } = await startServer({
      port: 0,
      host: '127.0.0.1',
      serveWeb: false,
      deps: createNodeAppDeps({ dataDir, log: () => undefined }),
    })
    servers.push(server)
    const port = new URL(url).port
    const r = await run([dir, '--port', port], { CUTOVER_DATA_DIR: dataDir })
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.started).toBe(false)
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`^${url}/runs/dir[0-9a-f]{16}$`))
    // a server over another data directory refuses it: exit 2 with the reason and a hint
    const other = await run([committedDir(), '--port', port], { CUTOVER_DATA_DIR: tempRoot() })
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/path_not_allowed: .*CUTOVER_INSPECT_ROOTS/)
  })

  it('[cli] bad input: exit 2 with one line, nothing recorded', async () => {
    const dataDir = tempRoot()
    const notCheckpoint = join(tempRoot(), 'plain')
    mkdirSync(notCheckpoint)
    const cases: [string[], RegExp][] = [
      [[notCheckpoint, '--port', '0'], /not_a_checkpoint_directory/],
      [[join(notCheckpoint, 'missing'), '--port', '0'], /not_a_checkpoint_directory: no directory/],
      [[], /missing DIR/],
      [[notCheckpoint, '--bogus'], /bogus/],
      [[notCheckpoint, '--port', 'x'], /--port/],
      [[notCheckpoint, notCheckpoint], /unexpected argument/],
    ]
    for (const [argv, message] of cases) {
      const r = await run(argv, { CUTOVER_DATA_DIR: dataDir })
      expect([argv, r.code, r.started]).toEqual([argv, 2, false])
      expect(r.stderr).toMatch(message)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
    expect(existsSync(join(dataDir, INSPECT_ROOTS_FILE))).toBe(false)
  })

  it('[cli] --help documents the command', async () => {
    const r = await run(['--help'], {})
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('usage: cutover inspect DIR')
  })
})
