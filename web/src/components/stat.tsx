import type { ReactNode } from 'react'

/** One labelled figure, e.g. inside a `card stat-grid`. */
export function Stat({
  label,
  children,
  className = 'stat',
  valueClassName = 'stat-value num',
  testId,
}: {
  label: ReactNode
  children: ReactNode
  className?: string
  valueClassName?: string
  testId?: string
}) {
  return (
    <div className={className}>
      <span className="stat-label">{label}</span>
      <span className={valueClassName} data-testid={testId}>
        {children}
      </span>
    </div>
  )
}
