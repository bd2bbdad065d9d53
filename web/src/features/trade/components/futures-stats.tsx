import { memo, useEffect, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { mul } from '@tradegate/shared'
import { useTicker } from '../../../lib/live/stream-hooks'
import { serverClock } from '../../../lib/server-clock'
import { useFormatters } from '../../../lib/use-formatters'

/**
 * A contract pair's reference prices beside its last price: the mark price that PnL and liquidation
 * follow, the index it is smoothed from, and the funding rate with the time left to the next funding.
 */
export const FuturesStats = memo(function FuturesStats({ symbol }: { symbol: string }) {
  const { t } = useTranslation()
  const ticker = useTicker(symbol)
  const { price, rate } = useFormatters()
  // until the first ticker with the reference prices the figures read '--', as the ticker header's do:
  // the list keeps its height, so the book and the form below do not move when the prices arrive
  const loaded =
    ticker?.markPrice && ticker.indexPrice && ticker.fundingRate && ticker.nextFundingTime
      ? {
          markPrice: ticker.markPrice,
          indexPrice: ticker.indexPrice,
          close: ticker.close,
          fundingRate: ticker.fundingRate,
          nextFundingTime: ticker.nextFundingTime,
        }
      : null
  return (
    <dl className="ticker-stats futures-stats" data-testid="futures-stats" aria-busy={!loaded}>
      <div>
        <dt>{t('trade.markPrice')}</dt>
        <dd className="num" data-testid="mark-price">
          {loaded ? price(loaded.markPrice) : '--'}
        </dd>
      </div>
      <div>
        <dt>{t('trade.futures.indexPrice')}</dt>
        <dd className="num" data-testid="index-price">
          {loaded ? price(loaded.indexPrice) : '--'}
        </dd>
      </div>
      <div>
        <dt>{t('market.lastPrice')}</dt>
        <dd className="num" data-testid="last-price">
          {loaded ? price(loaded.close) : '--'}
        </dd>
      </div>
      <div>
        <dt>{t('trade.futures.funding')}</dt>
        <dd className="num" data-testid="funding">
          <span data-testid="funding-rate">{loaded ? `${rate(mul(loaded.fundingRate, 100))}%` : '--'}</span>{' '}
          <FundingCountdown nextFundingTime={loaded?.nextFundingTime} />
        </dd>
      </div>
    </dl>
  )
})

/**
 * The time left to the next funding, ticking every second. A component of its own, so that each second
 * renders this one line and not the four prices beside it (each a decimal rounding and a locale format).
 */
const FundingCountdown = memo(function FundingCountdown({
  nextFundingTime,
}: {
  nextFundingTime: number | undefined
}) {
  const now = useSecondClock()
  return (
    <span className="muted" data-testid="funding-countdown">
      {nextFundingTime ? countdown(nextFundingTime - now) : '--:--:--'}
    </span>
  )
})

/** The exchange's time, read again every second. */
function useSecondClock(): number {
  const [now, setNow] = useState(() => serverClock.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(serverClock.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** Hours, minutes and seconds left, as 07:59:30; never below zero. */
export function countdown(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  const parts = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60]
  return parts.map((part) => String(part).padStart(2, '0')).join(':')
}
