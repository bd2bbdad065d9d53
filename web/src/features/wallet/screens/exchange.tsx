import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { ChevronIcon } from '../../../components/icons'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useExchangePairs } from '../api/get-exchange-pairs'

/** The currency pairs that can be exchanged; each opens the flash exchange form. */
export default function ExchangeScreen() {
  const { t } = useTranslation()
  const pairs = useExchangePairs()
  return (
    <Screen title={t('wallet.exchange')}>
      <DataState {...pairs} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list">
            {page.rows.map((pair) => (
              <li key={pair.id}>
                <Link href={`/flashExchange?from=${pair.from}&to=${pair.to}`} className="list-row">
                  <span className="list-row-title">
                    {pair.from.toUpperCase()} → {pair.to.toUpperCase()}
                  </span>
                  <ChevronIcon />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
