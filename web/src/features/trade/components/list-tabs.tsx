import type { ReactNode } from 'react'

/** The tab row over an order panel's lists (open orders, history, positions). */
export function ListTabs<T extends string>({
  tabs,
  value,
  onChange,
  end,
}: {
  tabs: ReadonlyArray<{ value: T; label: string; testId: string }>
  value: T
  onChange: (value: T) => void
  /** on the row's far end, e.g. "cancel all" */
  end?: ReactNode
}) {
  return (
    <div className="list-tabs">
      <div className="panel-tabs" role="tablist">
        {tabs.map((tab) => (
          <button
            key={tab.value}
            type="button"
            role="tab"
            aria-selected={tab.value === value}
            onClick={() => onChange(tab.value)}
            data-testid={tab.testId}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {end}
    </div>
  )
}
