import { useTranslation } from '../lib/i18n'
import { EmptyIcon } from './icons'

export function NoData({ text }: { text?: string }) {
  const { t } = useTranslation()
  return (
    <div className="no-data" role="status">
      <EmptyIcon size={56} />
      <p>{text ?? t('common.noData')}</p>
    </div>
  )
}
