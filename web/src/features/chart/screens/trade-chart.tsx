import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'wouter'
import { KLINE_INTERVALS, type KlineInterval } from '@tradegate/shared'
import { Screen } from '../../../components/screen'
import { TickerHeader } from '../../market/components/ticker-header'
import { tradeHref } from '../../market/lib/trade-link'
import CandleChart from '../components/candle-chart'
import { Link } from 'wouter'
import '../../trade/trading.css'

const DEFAULT_INTERVAL: KlineInterval = '15min'

function isInterval(value: string | null): value is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(value ?? '')
}

/** The full candlestick chart of one pair, with an interval switch; this route alone loads the chart code. */
export default function TradeChartScreen() {
  const { t } = useTranslation()
  const [search, setSearch] = useSearchParams()
  const symbol = search.get('symbol') || 'btcusdt'
  const requested = search.get('interval')
  const interval = isInterval(requested) ? requested : DEFAULT_INTERVAL
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
      <div className="interval-bar" role="group" aria-label={t('chart.interval')}>
        {KLINE_INTERVALS.map((choice) => (
          <button
            key={choice}
            type="button"
            aria-pressed={choice === interval}
            onClick={() => choose(choice)}
            data-interval={choice}
          >
            {t(`chart.intervals.${choice}`)}
          </button>
        ))}
      </div>
      <div className="chart-frame">
        <CandleChart key={`${symbol}-${interval}`} symbol={symbol} interval={interval} />
      </div>
    </Screen>
  )
}
