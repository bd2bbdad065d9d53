import { useTranslation } from '../../../lib/i18n'
import { NoData } from '../../../components/no-data'
import { markRead, type HeardNotice } from '../../../lib/notices'
import { noticeText } from '../../../lib/notice-text'
import { useFormatters } from '../../../lib/use-formatters'

/** The events heard this session, newest first; a tap marks one read. */
export function NoticeList({ items }: { items: readonly HeardNotice[] }) {
  const { t } = useTranslation()
  const formatters = useFormatters()
  if (items.length === 0) return <NoData text={t('notices.empty')} />
  return (
    <ul className="list" data-testid="notice-list">
      {items.map((item) => (
        <li
          key={item.id}
          className="list-row notice-row"
          data-read={item.read}
          data-kind={item.kind}
          data-testid="notice-row"
        >
          <button type="button" className="list-row-main notice-row-button" onClick={() => markRead(item.id)}>
            <span className="list-row-title">{noticeText(t, item, formatters)}</span>
            <span className="list-row-sub phrase">
              {formatters.dateTime(item.at)}
              {item.missed && <span className="tag">{t('notices.missed')}</span>}
              {!item.read && <span className="tag tag-accent">{t('notices.unread')}</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}
