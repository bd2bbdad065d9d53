import { Link } from 'wouter'
import { changePercent } from '@tradegate/shared'
import { usdtSymbol } from '../../../lib/coins'
import { tradeHref } from '../../../lib/trade-link'
import { LIST_RATE, useTicker } from '../../../lib/live/stream-hooks'
import { useFormatters } from '../../../lib/use-formatters'
import { StaleHint, useStaleMark } from '../../../components/feed-status'

function CoinCard({ coin }: { coin: string }) {
  const symbol = usdtSymbol(coin)
  const ticker = useTicker(symbol, LIST_RATE)
  const { price } = useFormatters()
  const percent = ticker ? changePercent(ticker.close, ticker.open) : '0.00'
  const direction = percent.startsWith('-') ? 'down' : 'up'
  return (
    <Link href={tradeHref(symbol)} className="coin-card" data-testid={`home-coin-${coin}`}>
      <span className="coin-card-name">{coin.toUpperCase()}/USDT</span>
      <span className={`coin-card-price num ${direction}`} data-testid="home-coin-price">
        {ticker ? price(ticker.close) : '--'}
      </span>
      <span className={`coin-card-change num ${direction}`}>
        {direction === 'up' ? '+' : ''}
        {percent}%
      </span>
    </Link>
  )
}

/** The home coins of the settings (btc, eth, trx by default), ticking live, grey while the feed is not. */
export function HomeCoins({ coins }: { coins: readonly string[] }) {
  const { stale, mark } = useStaleMark()
  return (
    <div className="coin-cards" data-testid="home-coins" {...mark}>
      <StaleHint stale={stale} />
      {coins.map((coin) => (
        <CoinCard key={coin} coin={coin} />
      ))}
    </div>
  )
}
