// ESLint flat config. The purity fence keeps core deterministic; the layer fence keeps core's
// folders importing in one direction only (packages/core/README.md); the boundary fence keeps the
// web app talking to core through its contracts only.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'

const coreDomain = ['packages/core/src/**/*.ts']
const coreEdges = [
  'packages/core/src/adapters/**',
  'packages/core/src/testing/**',
  'packages/core/src/**/*.test.ts',
]

export const purityRules = {
  'no-restricted-globals': [
    'error',
    { name: 'fetch', message: 'Core does no I/O: inject a transport port.' },
    { name: 'setTimeout', message: 'Core has no ambient clock: use the injected Clock.' },
    { name: 'setInterval', message: 'Core has no ambient clock: use the injected Clock.' },
    { name: 'setImmediate', message: 'Core has no ambient clock: use the injected Clock.' },
    { name: 'queueMicrotask', message: 'Core is synchronous and deterministic.' },
    { name: 'performance', message: 'Core has no ambient clock: use the injected Clock.' },
    { name: 'process', message: 'Core reads no environment: take options from the edge.' },
    { name: 'WebSocket', message: 'Core does no I/O: inject a transport port.' },
    { name: 'localStorage', message: 'Core does no I/O: inject a storage port.' },
    { name: 'console', message: 'Core does not log: return data to the edge.' },
    {
      name: 'crypto',
      message: 'Core does not hash or draw randomness: use the Digest port / PyRandom.',
    },
  ],
  'no-restricted-properties': [
    'error',
    {
      object: 'Date',
      property: 'now',
      message: 'Use the injected Clock (virtual time in the simulator).',
    },
    { object: 'Math', property: 'random', message: 'Use a seeded PyRandom.' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date']",
      message: 'Core has no ambient clock: use the injected Clock.',
    },
  ],
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: ['node:*', 'fs', 'path', 'crypto', 'os', 'child_process'],
          message: 'Core does no I/O: only adapters/ may import Node modules.',
        },
        {
          group: ['hono', 'hono/*', 'react', 'react-dom', '@hono/*'],
          message: 'Core depends on no framework.',
        },
        {
          group: ['**/adapters/*', '**/testing/*'],
          message: 'Domain code never imports adapters or testing helpers.',
        },
      ],
    },
  ],
}

/**
 * Core's layers, bottom first: a folder imports only from folders below it (and the foundation:
 * contracts/, rng/ and the root files json, result, ports, assert, jsonValueSchema, utf8). The
 * readers of traces and directories (invariants, render, scenarios, diff, inspect) sit just below
 * the simulator; recording/ (a real cycle read from its exchanges) sits on top, beside nothing.
 */
export const CORE_LAYERS = [
  ['records'],
  ['environments'],
  ['directory'],
  ['protocol'],
  ['controller'],
  ['invariants', 'render', 'scenarios', 'diff', 'inspect'],
  ['simulator'],
  ['recording'],
]
const CORE_FOUNDATION = ['contracts', 'rng']
const CORE_ROOT_FILES = [
  'json.ts',
  'result.ts',
  'ports.ts',
  'assert.ts',
  'jsonValueSchema.ts',
  'utf8.ts',
]
const core = (path) => `./packages/core/src/${path}`

/**
 * `import-x/no-restricted-paths` zones: each layer may not import any folder above or beside it.
 */
function coreLayerZones() {
  const all = CORE_LAYERS.flat()
  const zones = []
  CORE_LAYERS.forEach((layer, i) => {
    const above = CORE_LAYERS.slice(i).flat()
    for (const folder of layer) {
      const from = above.filter((f) => f !== folder)
      if (from.length > 0)
        zones.push({
          target: core(folder),
          from: from.map(core),
          message: `core layers import downward only: ${folder}/ sits below ${from.join(', ')} (packages/core/README.md)`,
        })
    }
  })
  for (const target of [...CORE_FOUNDATION.map(core), ...CORE_ROOT_FILES.map(core)])
    zones.push({
      target,
      from: all.map(core),
      message: 'the foundation (contracts, rng, root files) imports no core layer',
    })
  return zones
}

export const layerRules = {
  'import-x/no-restricted-paths': ['error', { zones: coreLayerZones() }],
  'import-x/no-cycle': ['error', { ignoreExternal: true }],
}

/**
 * apps/api's layers, bottom first (docs/architecture.md): process plumbing and HTTP helpers, the
 * run store, participant processes, the control-route scaffolding, the participant servers, the
 * HTTP controller, fleets and recordings, runs, the API routes, the app's composition (app.ts,
 * nodeAppDeps.ts, server.ts) and the CLI on top. repoPaths.ts and webBuild.ts are the foundation.
 */
export const API_LAYERS = [
  ['process', 'http'],
  ['store'],
  ['participants'],
  ['control'],
  ['gym', 'model'],
  ['agent'],
  ['controller'],
  ['fleet', 'record'],
  ['runs', 'checkpoints', 'directories'],
  ['routes'],
  ['app.ts'],
  ['nodeAppDeps.ts', 'server.ts'],
  ['cli'],
  // the fault campaign's harness (npm run faults) drives the CLI and the processes from above
  ['faults'],
]
const api = (path) => `./apps/api/src/${path}`

/**
 * `import-x/no-restricted-paths` zones for apps/api: each layer imports only the layers below it.
 */
function apiLayerZones() {
  const zones = []
  API_LAYERS.forEach((layer, i) => {
    const above = API_LAYERS.slice(i).flat()
    for (const folder of layer) {
      const from = above.filter((f) => f !== folder)
      if (from.length > 0)
        zones.push({
          target: api(folder),
          from: from.map(api),
          message: `apps/api layers import downward only: ${folder} sits below ${from.join(', ')} (docs/architecture.md)`,
        })
    }
  })
  for (const target of ['repoPaths.ts', 'webBuild.ts'].map(api))
    zones.push({
      target,
      from: API_LAYERS.flat().map(api),
      message: 'the foundation (repoPaths.ts, webBuild.ts) imports no apps/api layer',
    })
  return zones
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.cutover/**',
      'vendor/**',
      'e2e/test-results/**',
      '.ci-out/**',
      'packages/core/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Prettier keeps code within the width; this holds comments to it too (strings may run on).
      'max-len': [
        'error',
        {
          code: 100,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
        },
      ],
      'no-throw-literal': 'error',
    },
  },
  { files: coreDomain, ignores: coreEdges, rules: purityRules },
  {
    // The lint fixtures are ignored by `eslint .` and linted on purpose by
    // scripts/lintFence.test.ts.
    files: [...coreDomain, 'packages/core/lint-fixtures/**/*.ts'],
    ignores: coreEdges,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: layerRules,
  },
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/testing/**', 'apps/api/src/**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: apiLayerZones() }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@cutover/core(?!/contracts$)',
              message: 'The web app and e2e see core through @cutover/core/contracts only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
)
