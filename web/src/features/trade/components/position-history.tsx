import { useTranslation } from '../../../lib/i18n'
import { add, showFee, showPnl, sub, type Position } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'

/** What a closed part cost in fees both ways, and what it made after them. */
export function closedResult(position: Position): { fees: string; realized: string } {
  const fees = add(position.openFee ?? '0', position.closeFee ?? '0')
  return { fees: showFee(fees), realized: showPnl(sub(position.pnl, fees)) }
}

/** Closed positions: entry and exit, size, fees and the PnL they realized, with when they closed. */
export function PositionHistory({
  positions,
  priceScaleOf,
}: {
  positions: readonly Position[]
  /** a pair's price places */
  priceScaleOf: (symbol: string) => number
}) {
  const { t } = useTranslation()
  const { price, dateTime } = useFormatters()
  const newestFirst = [...positions].sort((a, b) => (b.closedAt ?? 0) - (a.closedAt ?? 0))
  return (
    <div className="table-scroll stacks">
      <table className="data-table stacking-table" data-testid="position-history">
        <thead>
          <tr>
            <th>{t('positions.closedAt')}</th>
            <th>{t('trade.pair')}</th>
            <th>{t('positions.size')}</th>
            <th>{t('positions.entryPrice')}</th>
            <th>{t('positions.exitPrice')}</th>
            <th>{t('positions.fees')}</th>
            <th>{t('positions.realizedPnl')}</th>
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((position) => {
            const { fees, realized } = closedResult(position)
            return (
              <tr key={position.id} data-position-status={position.status}>
                <td className="phrase muted nowrap cell-foot" data-label={t('positions.closedAt')}>
                  {position.closedAt ? dateTime(position.closedAt) : '--'}
                </td>
                <td className={`cell-head ${position.direction === 'long' ? 'up' : 'down'}`}>
                  <span className="nowrap">
                    {position.symbol.toUpperCase().replace(/USDT$/, '')} {t(`trade.${position.direction}`)}{' '}
                    <span className="num">{position.leverage}×</span>
                  </span>
                  {position.status === 'liquidated' && (
                    <span className="tag status-rejected">{t('positions.liquidated')}</span>
                  )}
                </td>
                <td className="num" data-label={t('positions.size')}>
                  {position.shares}
                </td>
                <td className="num" data-label={t('positions.entryPrice')}>
                  {price(position.openPrice, priceScaleOf(position.symbol))}
                </td>
                <td className="num" data-label={t('positions.exitPrice')}>
                  {price(position.closePrice, priceScaleOf(position.symbol))}
                </td>
                <td className="num" data-label={t('positions.fees')} data-testid="history-fees">
                  {fees}
                </td>
                <td
                  className={`num cell-end ${realized.startsWith('-') ? 'down' : 'up'}`}
                  data-label={t('positions.realizedPnl')}
                  data-testid="history-pnl"
                >
                  {realized}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {positions.length === 0 && <p className="muted empty-line">{t('positions.noHistory')}</p>}
    </div>
  )
}
