import type { ReactNode } from 'react'
import { useTranslation } from '../lib/i18n'
import { useLocation } from 'wouter'
import { goBackOr } from '../lib/hash-location'
import { BackIcon } from './icons'
import { NotificationBell } from './notification-bell'

export interface TopBarProps {
  title?: ReactNode
  /** shown unless turned off; goes back in history, or home when there is no history */
  back?: boolean
  right?: ReactNode
}

export function TopBar({ title, back = true, right }: TopBarProps) {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const goBack = () => goBackOr(navigate)
  const brand = t('brand')
  const screenName = typeof title === 'string' ? title.trim() : ''
  return (
    <header className="top-bar">
      {/* React puts the newest <title> first in the head; leaving the screen removes it, and the
          brand in index.html's <title> shows again */}
      <title>{screenName ? `${screenName} · ${brand}` : brand}</title>
      <div className="top-bar-side">
        {back && (
          <button type="button" className="icon-button" onClick={goBack} aria-label={t('common.back')}>
            <BackIcon size={22} />
          </button>
        )}
      </div>
      <h1 className="top-bar-title">{title}</h1>
      <div className="top-bar-side top-bar-right">
        {right}
        <NotificationBell />
      </div>
    </header>
  )
}
