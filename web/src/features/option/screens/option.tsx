import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'
import { NoData } from '../../../components/no-data'
import { useCoinList } from '../../../lib/settings'
import { OptionTrading } from '../components/option-trading'
import '../../../components/trading.css'

/** The options entry of the navigation: pick an option coin, then trade its chain. */
export default function OptionScreen() {
  const { t } = useTranslation()
  const coins = useCoinList()?.optionList ?? []
  const [chosen, setChosen] = useState<string | null>(null)
  const coin = coins.find((row) => row.coin === chosen)?.coin ?? coins[0]?.coin
  return (
    <Screen title={t('option.title')} className="option-screen">
      <div className="tab-strip option-coins" role="tablist" aria-label={t('option.coins')}>
        {coins.map((row) => (
          <button
            key={row.coin}
            type="button"
            role="tab"
            aria-selected={row.coin === coin}
            className="tab-strip-item"
            onClick={() => setChosen(row.coin)}
            data-testid="option-coin"
            data-coin={row.coin}
          >
            {row.showSymbol}
          </button>
        ))}
      </div>
      {coin ? (
        <div className="option-page">
          <OptionTrading key={coin} coin={coin} />
        </div>
      ) : (
        <NoData />
      )}
    </Screen>
  )
}
