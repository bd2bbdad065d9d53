import { memo } from 'react'
import { useTranslation } from '../lib/i18n'
import { changePercent } from '@tradegate/shared'
import { FeedStatusBadge, StaleHint, useStaleMark } from './feed-status'
import { useTicker } from '../lib/live/stream-hooks'
import { useFormatters } from '../lib/use-formatters'
import { directionOf } from '../lib/market-rows'
import { ChangePercent } from './change-percent'

/** The live 24 h ticker of one pair: last price, change, high, low and volume. */
export const TickerHeader = memo(function TickerHeader({ symbol, name }: { symbol: string; name: string }) {
  const { t } = useTranslation()
  const ticker = useTicker(symbol)
  const { price, quantity } = useFormatters()
  const change = ticker ? changePercent(ticker.close, ticker.open) : '0.00'
  const direction = directionOf(change)
  const { stale, mark } = useStaleMark()
  return (
    <section className="ticker-header" data-testid="ticker-header" aria-label={name} {...mark}>
      <StaleHint stale={stale} />
      <div className="ticker-main">
        <span className="ticker-name">{name}</span>
        <span className={`ticker-price num ${direction}`} data-testid="ticker-price">
          {ticker ? price(ticker.close) : '--'}
        </span>
        <ChangePercent change={change} />
        <FeedStatusBadge />
      </div>
      <dl className="ticker-stats">
        <div>
          <dt>{t('market.high24h')}</dt>
          <dd className="num">{ticker ? price(ticker.high) : '--'}</dd>
        </div>
        <div>
          <dt>{t('market.low24h')}</dt>
          <dd className="num">{ticker ? price(ticker.low) : '--'}</dd>
        </div>
        <div>
          <dt>{t('market.volume24h')}</dt>
          <dd className="num" data-testid="ticker-volume">
            {ticker ? `${quantity(ticker.vol, 2)} ${symbol.replace(/usdt$/i, '').toUpperCase()}` : '--'}
          </dd>
        </div>
      </dl>
    </section>
  )
})
