import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useMessageTitle } from '../components/message-title'
import { useMessages } from '../api/get-messages'

export default function MessagesScreen() {
  const { t } = useTranslation()
  const { dateTime } = useFormatters()
  const titleOf = useMessageTitle()
  const messages = useMessages()
  return (
    <Screen title={t('menu.message')}>
      <DataState {...messages} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list" data-testid="messages">
            {page.rows.map((message) => (
              <li key={message.id}>
                <Link href={`/message/detail?id=${message.id}`} className="list-row">
                  <span className="list-row-main">
                    <span className="list-row-title">{titleOf(message.title)}</span>
                    <span className="list-row-sub num">{dateTime(message.createdAt)}</span>
                  </span>
                  {!message.read && <span className="tag tag-accent">{t('message.unread')}</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
