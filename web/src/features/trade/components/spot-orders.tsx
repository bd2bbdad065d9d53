import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { SpotOrder } from '@tradegate/shared'
import { cancelSpotOrder } from '../api/cancel-spot-order'
import { CancelAllButton } from './cancel-buttons'
import { HideOtherPairs } from './hide-other-pairs'
import { ListTabs } from './list-tabs'
import { useCoinList } from '../../../lib/settings'
import { coinOf, quoteOf } from '../../../lib/market-rows'
import { OrderTable, commonUnits, type OrderUnits } from './order-table'
import { SpotOrderRow } from './spot-order-row'

type Tab = 'open' | 'history'

/**
 * The user's spot orders: the open ones on every pair (each cancellable, or all shown at once), which
 * "hide other pairs" narrows to this one, and this pair's history.
 */
export function SpotOrders({
  symbol,
  open,
  all,
  onChanged,
}: {
  symbol: string
  /** open orders on every pair */
  open: readonly SpotOrder[]
  /** this pair's orders */
  all: readonly SpotOrder[]
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Tab>('open')
  const [hideOthers, setHideOthers] = useState(false)
  const openRows = hideOthers ? open.filter((order) => order.symbol === symbol) : open
  const historyRows = all.filter((order) => order.status !== 'open')
  const rows = tab === 'open' ? openRows : historyRows
  const history = tab === 'history'
  const coinList = useCoinList()
  // a spot order's prices are in the pair's quote coin and its amounts in the coin it trades
  const unitsOf = (pairSymbol: string): OrderUnits => {
    const coin = coinOf(pairSymbol, coinList)
    return { price: quoteOf({ symbol: pairSymbol, coin }), amount: coin.toUpperCase() }
  }
  // with no rows, the head names this pair's units
  const units = commonUnits(rows.length > 0 ? rows.map((order) => unitsOf(order.symbol)) : [unitsOf(symbol)])
  return (
    <section className="panel trade-orders-area" aria-label={t('trade.myOrders')}>
      <ListTabs
        tabs={[
          { value: 'open', label: `${t('trade.openOrders')} (${openRows.length})`, testId: 'spot-open-tab' },
          { value: 'history', label: t('desk.orderHistory'), testId: 'spot-history-tab' },
        ]}
        value={tab}
        onChange={setTab}
        end={
          tab === 'open' && (
            <CancelAllButton
              count={openRows.length}
              ids={openRows.map((order) => order.id)}
              cancelOne={cancelSpotOrder}
              onDone={onChanged}
            />
          )
        }
      />
      {tab === 'open' && <HideOtherPairs checked={hideOthers} onChange={setHideOthers} />}
      <div className="table-scroll stacks">
        <OrderTable
          testId={history ? 'spot-history' : 'spot-orders'}
          history={history}
          units={units}
          leading={<th>{t('trade.side')}</th>}
        >
          {rows.map((order) => (
            <SpotOrderRow
              key={order.id}
              order={order}
              units={unitsOf(order.symbol)}
              headUnits={units}
              history={history}
              onChanged={onChanged}
            />
          ))}
        </OrderTable>
      </div>
      {rows.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
    </section>
  )
}
