import { useMemo } from 'react'
import { useTranslation } from '../lib/i18n'
import { Link } from 'wouter'
import { coinMatches, coinName, searchKey, type WatchCoin } from '@tradegate/shared'
import { NoData } from './no-data'
import { useAllTickers } from '../lib/live/stream-hooks'
import { useFormatters } from '../lib/use-formatters'
import { WatchButton } from './watch-button'
import { tradeHref } from '../lib/trade-link'

/** The text box that narrows a CoinSearchList. */
export function CoinSearchInput({
  value,
  onValueChange,
  autoFocus,
}: {
  value: string
  onValueChange: (value: string) => void
  autoFocus?: boolean
}) {
  const { t } = useTranslation()
  return (
    <input
      className="filter-input"
      type="search"
      autoFocus={autoFocus}
      placeholder={t('market.searchPlaceholder')}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      aria-label={t('market.search')}
      data-testid="coin-search"
    />
  )
}

/** Coins matching the text, each with its live price and a watchlist star; a tap opens trading. */
export function CoinSearchList({ coins, text }: { coins: readonly WatchCoin[]; text: string }) {
  const { t } = useTranslation()
  const tickers = useAllTickers()
  const { price } = useFormatters()
  const matches = useMemo(
    () =>
      coins.filter(
        (coin) =>
          coinMatches(text, coin.coin, coin.symbol) || searchKey(coin.showSymbol).includes(searchKey(text)),
      ),
    [coins, text],
  )
  if (matches.length === 0) return <NoData text={t('watchlist.noMatch')} />
  return (
    <ul className="list coin-search-list" data-testid="coin-results">
      {matches.map((coin) => {
        const ticker = tickers[coin.symbol]
        return (
          <li key={coin.symbol} className="list-row" data-symbol={coin.symbol}>
            <Link href={tradeHref(coin.symbol)} className="list-row-main coin-search-link">
              <span className="list-row-title">
                {coin.showSymbol} <span className="muted">{coinName(coin.coin)}</span>
              </span>
              <span className="list-row-sub num">{ticker ? price(ticker.close) : '--'}</span>
            </Link>
            <WatchButton symbol={coin.symbol} label={coin.showSymbol} />
          </li>
        )
      })}
    </ul>
  )
}
