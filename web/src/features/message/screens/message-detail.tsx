import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useMessageTitle } from '../components/message-title'
import { useReadMessage } from '../api/read-message'

export default function MessageDetailScreen() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const { dateTime } = useFormatters()
  const titleOf = useMessageTitle()
  const message = useReadMessage(search.get('id'))
  return (
    <Screen title={t('menu.message')}>
      <DataState {...message}>
        {(data) => (
          <article className="card article">
            <h2>{titleOf(data.title)}</h2>
            <p className="muted phrase">{dateTime(data.createdAt)}</p>
            <p>{data.content}</p>
          </article>
        )}
      </DataState>
    </Screen>
  )
}
