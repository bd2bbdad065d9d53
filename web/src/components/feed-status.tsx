import { useTranslation } from 'react-i18next'
import { useFeedStatus } from '../lib/live'

/**
 * Whether the prices on screen are live, delayed (a shown ticker silent for over 5 s) or waiting
 * for the connection to come back.
 */
export function FeedStatusBadge() {
  const { t } = useTranslation()
  const status = useFeedStatus()
  return (
    <span
      className={`feed-status feed-${status}`}
      role="status"
      title={t(`desk.feedHint.${status}`)}
      data-testid="feed-status"
      data-status={status}
    >
      <span className="feed-dot" aria-hidden="true" />
      {t(`desk.feed.${status}`)}
    </span>
  )
}
