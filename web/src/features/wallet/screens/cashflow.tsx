import { useTranslation } from 'react-i18next'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useFinancialRecords } from '../api/get-financial-records'

/** Every balance movement of the account, newest first. */
export default function CashflowScreen() {
  const { t } = useTranslation()
  const { dateTime } = useFormatters()
  const records = useFinancialRecords()
  return (
    <Screen title={t('wallet.cashflow')}>
      <DataList source={records}>
        {(record) => (
          <ListRow
            key={record.id}
            title={record.note || record.kind}
            sub={dateTime(record.createdAt)}
            subClassName="num"
            end={
              <span className={`num ${record.amount.startsWith('-') ? 'down' : 'up'}`}>
                {record.amount.startsWith('-') ? '' : '+'}
                {record.amount} {record.coin.toUpperCase()}
              </span>
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
