import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { DataState } from './data-state'

type Rows<T> = readonly T[] | { readonly rows: readonly T[] }

function rowsOf<T>(data: Rows<T>): readonly T[] {
  return 'rows' in data ? data.rows : data
}

/** A fetched list, plain or one page of a paged call: loading, failure and empty states, then a row each. */
export function DataList<T>({
  source,
  children,
  testId,
}: {
  source: { data: Rows<T> | undefined; error: unknown; isLoading: boolean; mutate?: () => unknown }
  children: (row: T) => ReactNode
  testId?: string
}) {
  return (
    <DataState
      data={source.data}
      error={source.error}
      isLoading={source.isLoading}
      mutate={source.mutate}
      isEmpty={(data) => rowsOf(data).length === 0}
    >
      {(data) => (
        <ul className="list" data-testid={testId}>
          {rowsOf(data).map(children)}
        </ul>
      )}
    </DataState>
  )
}

export interface RowTextProps {
  title: ReactNode
  /** the smaller second line; without it the title stands alone */
  sub?: ReactNode
  titleClassName?: string
  subClassName?: string
}

/** The title, and the line under it, of a list row. */
export function RowText({ title, sub, titleClassName, subClassName }: RowTextProps) {
  const titleSpan = <span className={classes('list-row-title', titleClassName)}>{title}</span>
  if (sub === undefined) return titleSpan
  return (
    <span className="list-row-main">
      {titleSpan}
      <span className={classes('list-row-sub', subClassName)}>{sub}</span>
    </span>
  )
}

/** One row of a `list`: its text and what stands at its end; a link over the whole row when given `href`. */
export function ListRow({ href, end, ...text }: RowTextProps & { href?: string; end?: ReactNode }) {
  if (href)
    return (
      <li>
        <Link href={href} className="list-row">
          <RowText {...text} />
          {end}
        </Link>
      </li>
    )
  return (
    <li className="list-row">
      <RowText {...text} />
      {end}
    </li>
  )
}

function classes(base: string, extra: string | undefined): string {
  return extra ? `${base} ${extra}` : base
}
