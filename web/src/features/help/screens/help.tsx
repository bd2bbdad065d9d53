import { useTranslation } from '../../../lib/i18n'
import { DataList, ListRow } from '../../../components/data-list'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useHelpList } from '../api/get-help-list'

export default function HelpScreen() {
  const { t } = useTranslation()
  const articles = useHelpList()
  return (
    <Screen title={t('menu.help')}>
      <DataList source={articles}>
        {(article) => (
          <ListRow
            key={article.id}
            href={`/helpDetail/${article.id}`}
            title={article.title}
            end={<ChevronIcon size={16} />}
          />
        )}
      </DataList>
    </Screen>
  )
}
