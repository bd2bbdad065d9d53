import { useTranslation } from '../../../lib/i18n'
import { Screen } from '../../../components/screen'
import { markAllRead, useNoticeCentre } from '../../../lib/notices'
import { NoticeList } from '../components/notice-list'
import { NoticeMutes } from '../components/notice-mutes'

/** The notification centre: every event of the user's money and positions heard this session. */
export default function NotificationsScreen() {
  const { t } = useTranslation()
  const { items, unread } = useNoticeCentre()
  return (
    <Screen title={t('notices.title')}>
      <button
        type="button"
        className="button"
        onClick={markAllRead}
        disabled={unread === 0}
        data-testid="notices-mark-read"
      >
        {t('notices.markAllRead')}
      </button>
      <NoticeList items={items} />
      <NoticeMutes />
    </Screen>
  )
}
