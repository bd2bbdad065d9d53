import { useTranslation } from 'react-i18next'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useProxyRecords } from '../api/get-proxy-records'

export default function ProxyRecordsScreen() {
  const { t } = useTranslation()
  const { date } = useFormatters()
  const records = useProxyRecords()
  return (
    <Screen title={t('proxy.records')}>
      <DataList source={records}>
        {(row) => (
          <ListRow
            key={row.id}
            title={row.name}
            sub={`${date(row.createdAt)} – ${date(row.endsAt)}`}
            subClassName="num"
            end={
              <span className="list-row-main num" style={{ textAlign: 'end' }}>
                <span>
                  {row.amount} {row.coin.toUpperCase()}
                </span>
                <span className="up">+{row.earned}</span>
              </span>
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
