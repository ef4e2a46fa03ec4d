import { serve, type ServerType } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { existsSync, readFileSync } from 'node:fs'
import type { AppDeps } from './app.ts'
import { createApiApp } from './app.ts'
import { guardHost } from './http/guardHost.ts'
import type { RunManager } from './runs/RunManager.ts'
import { WEB_DIST } from './repoPaths.ts'

export interface ServerOptions {
  readonly port: number
  readonly host: string
  /** Serve the built web app (and fall back to index.html for client routes). */
  readonly serveWeb: boolean
  readonly deps: AppDeps
}

/**
 * Starts the API (and the web build) on `host:port`; resolves once it listens. Requests naming
 * another host than this one (its bound address or a loopback name, with its port) are refused.
 */
export async function startServer(
  options: ServerOptions,
): Promise<{ server: ServerType; url: string; runs: RunManager }> {
  const { app, runs } = createApiApp(options.deps)
  if (options.serveWeb) {
    const indexPath = `${WEB_DIST}/index.html`
    if (!existsSync(indexPath))
      throw new Error(`web build missing at ${WEB_DIST}; run npm run build`)
    const indexHtml = readFileSync(indexPath, 'utf8')
    app.use('/assets/*', serveStatic({ root: WEB_DIST }))
    app.use('/favicon.svg', serveStatic({ root: WEB_DIST }))
    // Client routes fall back to the app shell; unknown API paths keep their JSON 404.
    app.get('*', (c) => (/^\/(api|gym)\//.test(c.req.path) ? c.notFound() : c.html(indexHtml)))
  }
  let port = options.port
  const fetch = guardHost(app.fetch, options.host, () => port)
  return await new Promise((resolve) => {
    const server = serve({ fetch, port: options.port, hostname: options.host }, (info) => {
      port = info.port
      resolve({
        server,
        url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${info.port}`,
        runs,
      })
    })
  })
}
