import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { changePercent, type CoinEntry } from '@tradegate/shared'
import { toDisplayCoin } from '../../../lib/coins'
import { LIST_RATE, useTicker } from '../../../lib/live/stream-hooks'
import { useFormatters } from '../../../lib/use-formatters'
import { tradeHref } from '../../../lib/trade-link'
import { useStaleMark } from '../../../components/feed-status'
import { ChangePercent } from '../../../components/change-percent'

function MarketRow({ entry }: { entry: CoinEntry }) {
  const coin = toDisplayCoin(entry)
  const ticker = useTicker(entry.symbol, LIST_RATE)
  const { price } = useFormatters()
  const close = ticker?.close ?? entry.amount
  const open = ticker?.open ?? entry.open
  const percent = changePercent(close, open)
  return (
    <tr>
      <td>
        <Link href={tradeHref(entry.symbol)}>
          <strong>{coin.coinUpperCase}</strong>
          <span className="muted"> / {coin.baseCoinUpperCase}</span>
        </Link>
      </td>
      <td className="num">{price(close)}</td>
      <td>
        <ChangePercent change={percent} pill />
      </td>
    </tr>
  )
}

/** The first coins of the coin list with live prices. */
export function MarketList({ entries }: { entries: readonly CoinEntry[] }) {
  const { t } = useTranslation()
  const { stale, mark } = useStaleMark()
  return (
    <table className="market-table card" style={{ padding: 0 }} data-testid="home-markets" {...mark}>
      {stale && <caption className="visually-hidden">{t('desk.staleHint')}</caption>}
      <thead>
        <tr>
          <th>{t('home.pair')}</th>
          <th>{t('home.lastPrice')}</th>
          <th>{t('home.change24h')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <MarketRow key={entry.symbol} entry={entry} />
        ))}
      </tbody>
    </table>
  )
}
