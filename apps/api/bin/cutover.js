#!/usr/bin/env node
// Runs the TypeScript CLI in this process through tsx's loader, so `npx cutover` works after a
// plain `npm ci` on Node 20 and signals reach the server directly.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
await main()
