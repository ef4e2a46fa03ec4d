import { describe, expect, it } from 'vitest'
import { resolveDataDir } from './nodeAppDeps.ts'

describe('data directory', () => {
  it('[serve] the data directory is CUTOVER_DATA_DIR (relative to the working directory) or .cutover/', () => {
    expect(resolveDataDir({}, '/work/x')).toBe('/work/x/.cutover')
    expect(resolveDataDir({ CUTOVER_DATA_DIR: '' }, '/work/x')).toBe('/work/x/.cutover')
    expect(resolveDataDir({ CUTOVER_DATA_DIR: 'data' }, '/work/x')).toBe('/work/x/data')
    expect(resolveDataDir({ CUTOVER_DATA_DIR: '/srv/cutover' }, '/work/x')).toBe('/srv/cutover')
  })
})
