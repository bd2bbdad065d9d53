import { useTranslation } from '../lib/i18n'
import { Link } from 'wouter'
import { NoData } from '../components/no-data'
import { Screen } from '../components/screen'

export function NotFound() {
  const { t } = useTranslation()
  return (
    <Screen title={t('common.notFound')}>
      <NoData text={t('common.notFound')} />
      <Link href="/" className="button button-primary button-block">
        {t('common.goHome')}
      </Link>
    </Screen>
  )
}
