import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
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
      <DataState {...records} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list">
            {page.rows.map((record) => (
              <li key={record.id} className="list-row">
                <span className="list-row-main">
                  <span className="list-row-title">{record.note || record.kind}</span>
                  <span className="list-row-sub num">{dateTime(record.createdAt)}</span>
                </span>
                <span className={`num ${record.amount.startsWith('-') ? 'down' : 'up'}`}>
                  {record.amount.startsWith('-') ? '' : '+'}
                  {record.amount} {record.coin.toUpperCase()}
                </span>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
