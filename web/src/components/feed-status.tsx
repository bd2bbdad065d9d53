import { useTranslation } from '../lib/i18n'
import { useFeedBadge, type FeedBadgeState } from '../lib/live/feed-badge'

/** The badge's words: the feed's status, or while the socket is away what it is doing about it. */
function badgeText(
  t: (key: string, values?: Record<string, unknown>) => string,
  badge: FeedBadgeState,
): string {
  if (badge.status !== 'reconnecting') return t(`desk.feed.${badge.status}`)
  if (badge.socket === 'offline') return t('live.offline')
  if (badge.socket === 'waiting')
    return t(badge.busy ? 'live.busy' : 'live.retryIn', { seconds: badge.seconds })
  return t('live.connecting')
}

/**
 * Whether the prices on screen are live, delayed (a shown ticker silent for over 5 s) or waiting
 * for the connection to come back, and then when the next try is.
 */
export function FeedStatusBadge() {
  const { t } = useTranslation()
  const badge = useFeedBadge()
  const { status } = badge
  const counting = status === 'reconnecting' && badge.socket === 'waiting'
  return (
    <span
      className={`feed-status feed-${status}`}
      role="status"
      title={t(`desk.feedHint.${status}`)}
      data-testid="feed-status"
      data-status={status}
      data-socket={badge.socket}
      data-retry-at={badge.retryAt || undefined}
      data-retry={badge.retry || undefined}
    >
      <span className="feed-dot" aria-hidden="true" />
      {/* a countdown would be read out every second: the live region keeps the one word instead */}
      <span className="feed-text" aria-hidden={counting || undefined}>
        {badgeText(t, badge)}
      </span>
      {counting && <span className="visually-hidden">{t('desk.feed.reconnecting')}</span>}
    </span>
  )
}

/**
 * Whether figures from the feed are not live now (the badge says delayed or reconnecting), and the
 * attributes that grey a block of them (the stale rule in styles.css) with the reason on hover.
 */
export function useStaleMark(): { stale: boolean; mark: { 'data-stale'?: ''; title?: string } } {
  const { t } = useTranslation()
  const stale = useFeedBadge().status !== 'live'
  return { stale, mark: stale ? { 'data-stale': '', title: t('desk.staleHint') } : {} }
}

/** The reason a greyed block is grey, for screen readers, inside the block. */
export function StaleHint({ stale }: { stale: boolean }) {
  const { t } = useTranslation()
  if (!stale) return null
  return (
    <span className="visually-hidden" data-testid="stale-hint">
      {t('desk.staleHint')}
    </span>
  )
}
