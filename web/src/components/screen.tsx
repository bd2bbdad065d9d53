import type { ReactNode } from 'react'
import { TopBar, type TopBarProps } from './top-bar'

/** A routed screen: the top bar and a padded body. */
export function Screen({
  children,
  className,
  ...topBar
}: TopBarProps & { children: ReactNode; className?: string }) {
  return (
    <div className={`screen${className ? ` ${className}` : ''}`}>
      <TopBar {...topBar} />
      <div className="screen-body">{children}</div>
    </div>
  )
}
