import { useTranslation } from '../../../lib/i18n'
import { formatDateTime } from '../../../lib/intl'
import { useTrades } from '../../../lib/live/stream-hooks'
import { useFormatters } from '../../../lib/use-formatters'
import { quoteOf } from '../../../lib/market-rows'
import { StaleHint, useStaleMark } from '../../../components/feed-status'

const SHOWN = 20

/** The latest prints of one pair from the TRADE stream, newest first. */
export function RecentTrades({ symbol, coin }: { symbol: string; coin: string }) {
  const { t } = useTranslation()
  const trades = useTrades(symbol)
  const { price, quantity, timeZone, zone, zoneAt } = useFormatters()
  const { stale, mark } = useStaleMark()
  return (
    <div className="recent-trades" data-testid="recent-trades-panel" {...mark}>
      <StaleHint stale={stale} />
      <table className="data-table compact" data-testid="recent-trades">
        <thead>
          <tr>
            <th>{t('common.withUnit', { name: t('trade.price'), unit: quoteOf({ symbol, coin }) })}</th>
            <th>{t('common.withUnit', { name: t('trade.quantity'), unit: coin.toUpperCase() })}</th>
            <th>
              {t('common.withUnit', {
                name: t('trade.time'),
                unit: trades[0] ? zoneAt(trades[0].time) : zone,
              })}
            </th>
          </tr>
        </thead>
        <tbody>
          {trades.slice(0, SHOWN).map((trade, index) => (
            <tr key={`${trade.time}-${index}`}>
              <td className={`num ${trade.side === 'buy' ? 'up' : 'down'}`}>{price(trade.price)}</td>
              <td className="num">{quantity(trade.qty, 4)}</td>
              <td className="num muted">{formatDateTime(trade.time, timeZone, 'HH:mm:ss')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {trades.length === 0 && <p className="muted empty-line">{t('trade.waitingForTrades')}</p>}
    </div>
  )
}
