import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useProxyRecords } from '../api/get-proxy-records'

export default function ProxyRecordsScreen() {
  const { t } = useTranslation()
  const { date } = useFormatters()
  const records = useProxyRecords()
  return (
    <Screen title={t('proxy.records')}>
      <DataState {...records} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list">
            {page.rows.map((row) => (
              <li key={row.id} className="list-row">
                <span className="list-row-main">
                  <span className="list-row-title">{row.name}</span>
                  <span className="list-row-sub num">
                    {date(row.createdAt)} – {date(row.endsAt)}
                  </span>
                </span>
                <span className="list-row-main num" style={{ textAlign: 'end' }}>
                  <span>
                    {row.amount} {row.coin.toUpperCase()}
                  </span>
                  <span className="up">+{row.earned}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
