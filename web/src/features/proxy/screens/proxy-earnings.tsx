import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useProxyEarnings } from '../api/get-proxy-earnings'

export default function ProxyEarningsScreen() {
  const { t } = useTranslation()
  const { dateTime } = useFormatters()
  const earnings = useProxyEarnings()
  return (
    <Screen title={t('proxy.earnings')}>
      <DataState {...earnings} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list">
            {page.rows.map((row) => (
              <li key={row.id} className="list-row">
                <span className="list-row-main">
                  <span className="list-row-title">{row.note || row.kind}</span>
                  <span className="list-row-sub num">{dateTime(row.createdAt)}</span>
                </span>
                <span className="up num">
                  +{row.amount} {row.coin.toUpperCase()}
                </span>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
