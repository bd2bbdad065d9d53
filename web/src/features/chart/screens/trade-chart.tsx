import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'wouter'
import type { KlineInterval } from '@tradegate/shared'
import { Screen } from '../../../components/screen'
import { TickerHeader } from '../../../components/ticker-header'
import { tradeHref } from '../../../lib/trade-link'
import CandleChart from '../../../components/candle-chart'
import { IntervalBar, intervalOf } from '../../../components/interval-bar'
import { Link } from 'wouter'
import '../../../components/trading.css'

/** The full candlestick chart of one pair, with an interval switch; this route alone loads the chart code. */
export default function TradeChartScreen() {
  const { t } = useTranslation()
  const [search, setSearch] = useSearchParams()
  const symbol = search.get('symbol') || 'btcusdt'
  const interval = intervalOf(search.get('interval'))
  const name = symbol.toUpperCase().replace(/USDT$/, '/USDT')
  const choose = (next: KlineInterval) =>
    setSearch(
      (current) => {
        current.set('interval', next)
        return current
      },
      { replace: true },
    )
  return (
    <Screen
      title={name}
      className="chart-screen"
      right={
        <Link
          href={tradeHref(symbol)}
          className="button button-small button-primary"
          data-testid="chart-trade"
        >
          {t('chart.trade')}
        </Link>
      }
    >
      <TickerHeader symbol={symbol} name={name} />
      <IntervalBar value={interval} onChange={choose} />
      <div className="chart-frame">
        <CandleChart key={`${symbol}-${interval}`} symbol={symbol} interval={interval} />
      </div>
    </Screen>
  )
}
