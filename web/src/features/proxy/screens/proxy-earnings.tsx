import { useTranslation } from '../../../lib/i18n'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useProxyEarnings } from '../api/get-proxy-earnings'

export default function ProxyEarningsScreen() {
  const { t } = useTranslation()
  const { dateTime } = useFormatters()
  const earnings = useProxyEarnings()
  return (
    <Screen title={t('proxy.earnings')}>
      <DataList source={earnings}>
        {(row) => (
          <ListRow
            key={row.id}
            title={row.note || row.kind}
            sub={dateTime(row.createdAt)}
            subClassName="phrase"
            end={
              <span className="up num">
                +{row.amount} {row.coin.toUpperCase()}
              </span>
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
