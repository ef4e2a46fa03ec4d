import type { JsonValue } from '../../json.ts'
import { floorDiv, PyError, pyIndex, pySlice, pyTypeName } from './python.ts'

/**
 * The reference pagination: ceil pages, clamp the page, Python slicing (page_size 0 raises
 * ZeroDivisionError).
 */
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
  const total = items.length
  const pageSize = pyIndex(pageSizeArg)
  const totalPages = floorDiv(total + pageSize - 1, pageSize)
  // `max(1, min(page, total_pages))`: min compares `total_pages < page` before anything else reads
  // page.
  if (typeof pageArg !== 'number' && typeof pageArg !== 'boolean')
    throw new PyError(
      'TypeError',
      `'<' not supported between instances of 'int' and '${pyTypeName(pageArg)}'`,
    )
  const page0 = pyIndex(pageArg)
  const page = Math.max(1, Math.min(page0, totalPages))
  const start = (page - 1) * pageSize
  const end = Math.min(start + pageSize, total)
  return { items: pySlice(items, start, end), page, pageSize, totalPages }
}
