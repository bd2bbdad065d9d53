import { useTranslation } from '../../../lib/i18n'
import { useParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useHelpDetail } from '../api/get-help-detail'

export default function HelpDetailScreen() {
  const { t } = useTranslation()
  const { id } = useParams<{ id: string }>()
  const article = useHelpDetail(id)
  return (
    <Screen title={article.data?.title ?? t('menu.help')}>
      <DataState {...article}>
        {(data) => (
          <article className="card article">
            <h2>{data.title}</h2>
            <p>{data.content}</p>
          </article>
        )}
      </DataState>
    </Screen>
  )
}
