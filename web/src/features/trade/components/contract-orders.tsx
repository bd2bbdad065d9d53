import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { ContractOrder } from '@tradegate/shared'
import { ContractOrderRow } from './contract-order-row'
import { useCoinList } from '../../../lib/settings'
import { coinOf, quoteOf } from '../../../lib/market-rows'
import { OrderTable, commonUnits, type OrderUnits } from './order-table'
import { AmendOrderForm } from './amend-order'

/** Contract orders as a table: open ones with a cancel button, past ones with their total, fee and status. */
export function ContractOrderTable({
  symbol,
  orders,
  history,
  shareNumberOf,
  priceScaleOf,
  onChanged,
}: {
  /** the page's pair, whose units the head names when there are no rows */
  symbol: string
  orders: readonly ContractOrder[]
  history: boolean
  /** usdt of position value per share of a pair */
  shareNumberOf: (symbol: string) => string
  /** decimal places of a pair's prices */
  priceScaleOf: (symbol: string) => number
  onChanged: () => void
}) {
  const { t } = useTranslation()
  // the form goes under the table, full width, where a phone's scrolled table would hide it
  const [amendingId, setAmendingId] = useState<number | null>(null)
  const amending = history ? undefined : orders.find((order) => order.id === amendingId)
  const coinList = useCoinList()
  // a contract order's prices are in its pair's quote coin, and it is sized in shares (contracts)
  const unitsOf = (symbol: string): OrderUnits => ({
    price: quoteOf({ symbol, coin: coinOf(symbol, coinList) }),
    amount: t('trade.sharesUnit'),
  })
  const units = commonUnits(
    orders.length > 0 ? orders.map((order) => unitsOf(order.symbol)) : [unitsOf(symbol)],
  )
  return (
    <>
      <div className="table-scroll stacks">
        <OrderTable
          testId={history ? 'contract-history' : 'contract-orders'}
          history={history}
          units={units}
          leading={
            <>
              <th>{t('trade.pair')}</th>
              <th>{t('trade.direction')}</th>
            </>
          }
          pastTrailing={<th>{t('positions.realizedPnl')}</th>}
        >
          {orders.map((order) => (
            <ContractOrderRow
              key={order.id}
              order={order}
              history={history}
              units={unitsOf(order.symbol)}
              headUnits={units}
              shareNumber={shareNumberOf(order.symbol)}
              tickPlaces={priceScaleOf(order.symbol)}
              amending={order.id === amendingId}
              onAmend={() => setAmendingId(order.id === amendingId ? null : order.id)}
              onChanged={onChanged}
            />
          ))}
        </OrderTable>
        {orders.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
      </div>
      {amending && (
        <AmendOrderForm
          key={amending.id}
          order={amending}
          scale={priceScaleOf(amending.symbol)}
          onDone={() => {
            setAmendingId(null)
            onChanged()
          }}
        />
      )}
    </>
  )
}
