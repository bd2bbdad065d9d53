import { useTranslation } from 'react-i18next'
import { ChevronIcon } from '../../../components/icons'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { useExchangePairs } from '../api/get-exchange-pairs'

/** The currency pairs that can be exchanged; each opens the flash exchange form. */
export default function ExchangeScreen() {
  const { t } = useTranslation()
  const pairs = useExchangePairs()
  return (
    <Screen title={t('wallet.exchange')}>
      <DataList source={pairs}>
        {(pair) => (
          <ListRow
            key={pair.id}
            href={`/flashExchange?from=${pair.from}&to=${pair.to}`}
            title={`${pair.from.toUpperCase()} → ${pair.to.toUpperCase()}`}
            end={<ChevronIcon />}
          />
        )}
      </DataList>
    </Screen>
  )
}
