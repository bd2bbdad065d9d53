import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { ROLL_NOTICE, useNotices } from '../../../lib/api/get-notices'

/** One notice, found in its list by id (the list is cached by the gateway). */
export default function NoticeDetailScreen() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const key = search.get('key') ?? ROLL_NOTICE
  const id = search.get('id')
  const { dateTime } = useFormatters()
  const notices = useNotices(/^[A-Za-z_]{1,32}$/.test(key) ? key : ROLL_NOTICE)
  return (
    <Screen title={t('notice.title')}>
      <DataState {...notices} isEmpty={(rows) => rows.length === 0}>
        {(rows) => {
          const shown = id ? rows.filter((row) => String(row.id) === id) : rows
          return shown.map((notice) => (
            <article key={notice.id} className="card article">
              <h2>{notice.title}</h2>
              <p className="muted phrase">{dateTime(notice.createdAt)}</p>
              <p>{notice.content}</p>
            </article>
          ))
        }}
      </DataState>
    </Screen>
  )
}
