// pageNum and pageSize arrive as text; a page past the end is simply empty.

const DEFAULT_PAGE_SIZE = 20

export function page<T>(
  rows: readonly T[],
  query: { pageNum?: string | number; pageSize?: string | number } | undefined,
): { rows: T[]; total: number } {
  const pageNum = Math.max(1, Number(query?.pageNum ?? 1) || 1)
  const pageSize = Math.max(1, Number(query?.pageSize ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE)
  const start = (pageNum - 1) * pageSize
  return { rows: rows.slice(start, start + pageSize), total: rows.length }
}
