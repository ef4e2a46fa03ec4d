import type { JsonValue } from '../../json.ts'
import { floorDiv, pyIndex, pySlice } from './python.ts'

/** The reference pagination: ceil pages, clamp the page, Python slicing (page_size 0 raises ZeroDivisionError). */
export function paginate<T>(
  items: readonly T[],
  pageArg: JsonValue | undefined,
  pageSizeArg: JsonValue | undefined,
): {
  readonly items: T[]
  readonly page: number
  readonly pageSize: number
  readonly totalPages: number
} {
  const pageSize = pyIndex(pageSizeArg, 'page_size')
  const page0 = pyIndex(pageArg, 'page')
  const total = items.length
  const totalPages = floorDiv(total + pageSize - 1, pageSize)
  const page = totalPages > 0 ? Math.max(1, Math.min(page0, totalPages)) : 1
  const start = (page - 1) * pageSize
  const end = Math.min(start + pageSize, total)
  return { items: pySlice(items, start, end), page, pageSize, totalPages }
}
