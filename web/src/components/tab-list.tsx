import type { KeyboardEvent, ReactNode } from 'react'

// A row of tabs with the keyboard of the WAI-ARIA tabs pattern: Tab reaches only the chosen tab,
// the arrow keys (mirrored in right-to-left text), Home and End move to another and choose it.

export interface TabItem<T> {
  value: T
  label: ReactNode
  /** data-* attributes the tab's button carries, e.g. for tests */
  data?: Record<`data-${string}`, string | number>
}

const NEXT: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 }

/** Moves focus (and the choice) to another tab of the tablist the key was pressed in. */
function moveBetweenTabs(event: KeyboardEvent<HTMLElement>): void {
  const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]'))
  const current = tabs.indexOf(document.activeElement as HTMLElement)
  if (current < 0) return
  let target: number
  if (event.key === 'Home') target = 0
  else if (event.key === 'End') target = tabs.length - 1
  else if (event.key in NEXT) {
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl'
    target = (current + NEXT[event.key]! * (rtl ? -1 : 1) + tabs.length) % tabs.length
  } else return
  event.preventDefault()
  tabs[target]!.focus()
  tabs[target]!.click()
}

export function TabList<T extends string | number>({
  items,
  value,
  onChange,
  className,
  itemClassName,
  label,
}: {
  items: ReadonlyArray<TabItem<T>>
  value: T | undefined
  onChange: (value: T) => void
  className: string
  itemClassName?: string
  label?: string
}) {
  const chosen = Math.max(
    0,
    items.findIndex((item) => item.value === value),
  )
  return (
    <div className={className} role="tablist" aria-label={label} onKeyDown={moveBetweenTabs}>
      {items.map((item, index) => (
        <button
          key={item.value}
          type="button"
          role="tab"
          aria-selected={item.value === value}
          tabIndex={index === chosen ? 0 : -1}
          className={itemClassName}
          onClick={() => onChange(item.value)}
          {...item.data}
        >
          {item.label}
        </button>
      ))}
    </div>
  )
}
