import { useTranslation } from '../lib/i18n'
import { Link } from 'wouter'
import { useNoticeCentre } from '../lib/notices'
import { useSession } from '../lib/session'
import { BellIcon } from './icons'

/** The way to the notification centre, with how many events are unread; signed in only. */
export function NotificationBell() {
  const { t } = useTranslation()
  const { token } = useSession()
  const { unread } = useNoticeCentre()
  if (!token) return null
  return (
    <Link
      href="/notifications"
      className="icon-button notification-bell"
      aria-label={t('notices.open', { count: unread })}
      data-testid="notification-bell"
    >
      <BellIcon size={22} />
      {unread > 0 && (
        <span className="notification-count" data-testid="notification-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  )
}
