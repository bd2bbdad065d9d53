import { useTranslation } from 'react-i18next'
import type { MoneyRequest } from '@tradegate/shared'
import { DataList, ListRow } from '../../../components/data-list'
import { useFormatters } from '../../../lib/use-formatters'

/** Deposit or withdrawal requests with their state, newest first. */
export function RequestList({
  source,
  testId,
}: {
  source: {
    data: { rows: readonly MoneyRequest[] } | undefined
    error: unknown
    isLoading: boolean
    mutate?: () => unknown
  }
  testId?: string
}) {
  const { t } = useTranslation()
  const { money, dateTime } = useFormatters()
  return (
    <DataList source={source} testId={testId}>
      {(row) => (
        <ListRow
          key={row.id}
          title={`${money(row.amount, row.coin)} ${row.coin.toUpperCase()}`}
          titleClassName="num"
          sub={dateTime(row.createdAt)}
          subClassName="num"
          end={<span className="tag">{t(`wallet.status.${row.status}`)}</span>}
        />
      )}
    </DataList>
  )
}
