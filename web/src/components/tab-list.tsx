import { useRef, type KeyboardEvent, type ReactNode } from 'react'

// A row of tabs that works from the keyboard as a screen reader expects: one tab stop for the row,
// arrow keys (mirrored right to left), Home and End move between tabs and select them.

export interface TabItem<T extends string> {
  value: T
  label: ReactNode
  testId?: string
}

export interface TabListProps<T extends string> {
  tabs: ReadonlyArray<TabItem<T>>
  value: T
  onChange: (value: T) => void
  label?: string
  className?: string
  tabClassName?: string
}

export function TabList<T extends string>({
  tabs,
  value,
  onChange,
  label,
  className = 'tab-strip',
  tabClassName = 'tab-strip-item',
}: TabListProps<T>) {
  const row = useRef<HTMLDivElement>(null)
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = tabs.findIndex((tab) => tab.value === value)
    const forward = document.documentElement.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight'
    const backward = forward === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft'
    const next =
      event.key === forward
        ? (current + 1) % tabs.length
        : event.key === backward
          ? (current - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1
    const tab = tabs[next]
    if (!tab) return
    event.preventDefault()
    onChange(tab.value)
    row.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus()
  }
  return (
    <div ref={row} className={className} role="tablist" aria-label={label} onKeyDown={move}>
      {tabs.map((tab) => {
        const selected = tab.value === value
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            className={tabClassName}
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            data-testid={tab.testId}
          >
            {tab.label}
          </button>
        )
      })}
    </div>
  )
}
