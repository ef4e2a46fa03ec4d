import { describe, expect, it } from 'vitest'
import { hideLocalPaths } from './hideLocalPaths.ts'

describe('hideLocalPaths', () => {
  it('[security] data-directory paths become relative, the directory itself is named, the home directory is ~', () => {
    const text =
      "ENOSPC: no space left on device, write '/home/ann/work/.cutover/runs/r1/checkpoints/ck-1/x.json'; in /home/ann/work/.cutover; see /home/ann/notes"
    expect(hideLocalPaths(text, '/home/ann/work/.cutover', '/home/ann')).toBe(
      "ENOSPC: no space left on device, write 'runs/r1/checkpoints/ck-1/x.json'; in the data directory; see ~/notes",
    )
    expect(hideLocalPaths('no route GET /api/runs', '/data', '/')).toBe('no route GET /api/runs')
  })
})
