import type { ReactNode } from 'react'
import { TabList } from '../../../components/tab-list'

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
      <TabList
        className="panel-tabs"
        items={tabs.map((tab) => ({
          value: tab.value,
          label: tab.label,
          data: { 'data-testid': tab.testId },
        }))}
        value={value}
        onChange={onChange}
      />
      {end}
    </div>
  )
}
