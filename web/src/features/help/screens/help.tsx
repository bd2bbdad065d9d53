import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useHelpList } from '../api/get-help-list'

export default function HelpScreen() {
  const { t } = useTranslation()
  const articles = useHelpList()
  return (
    <Screen title={t('menu.help')}>
      <DataState {...articles} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <ul className="list">
            {rows.map((article) => (
              <li key={article.id}>
                <Link href={`/helpDetail/${article.id}`} className="list-row">
                  <span className="list-row-title">{article.title}</span>
                  <ChevronIcon size={16} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
