import { useTranslation } from '../../../lib/i18n'
import { DataList, ListRow } from '../../../components/data-list'
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
      <DataList source={messages} testId="messages">
        {(message) => (
          <ListRow
            key={message.id}
            href={`/message/detail?id=${message.id}`}
            title={titleOf(message.title)}
            sub={dateTime(message.createdAt)}
            subClassName="phrase"
            end={!message.read && <span className="tag tag-accent">{t('message.unread')}</span>}
          />
        )}
      </DataList>
    </Screen>
  )
}
