import { memo, useCallback, useEffect, useEffectEvent, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { ContractPair } from '@tradegate/shared'
import { useUserEvents } from '../../../lib/live/stream-hooks'
import { cancelContractOrder } from '../api/cancel-contract-order'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useContractOrderHistory, useOpenContractOrders } from '../api/get-contract-orders'
import { useLossSettings } from '../api/get-loss-settings'
import { useOpenPositions, usePositionHistory } from '../api/get-positions'
import { CancelAllButton } from './cancel-buttons'
import { ContractForm } from './contract-form'
import { CloseAllPositions } from './close-all-positions'
import { ContractOrderTable } from './contract-orders'
import { HideOtherPairs } from './hide-other-pairs'
import { ListTabs } from './list-tabs'
import { PositionCard } from './position-card'
import { PositionHistory } from './position-history'

type ListTab = 'positions' | 'orders' | 'history' | 'closed'

/** Leveraged contracts: the order form, then positions, open orders, the order and position histories. */
export const ContractPanel = memo(function ContractPanel({
  pair,
  pairs,
}: {
  pair: ContractPair
  pairs: readonly ContractPair[]
}) {
  const { t } = useTranslation()
  const balances = useBalances()
  const positions = useOpenPositions()
  const orders = useOpenContractOrders()
  const history = useContractOrderHistory()
  const closed = usePositionHistory()
  const losses = useLossSettings()
  const positionEvent = useUserEvents('POSITION')
  const [listTab, setListTab] = useState<ListTab>('positions')
  const [hideOthers, setHideOthers] = useState(false)
  // Each of the six reads above answers on its own while the page loads, and each answer renders this
  // panel again (synchronously, as every SWR update is). The form is memoised and given a refresh that
  // keeps its identity (SWR's bound mutate functions do), so those answers re-render the lists they
  // fill and not the whole order form; the form still renders when the balances it shows arrive.
  const { mutate: refreshBalances } = balances
  const { mutate: refreshPositions } = positions
  const { mutate: refreshOrders } = orders
  const { mutate: refreshHistory } = history
  const { mutate: refreshClosed } = closed
  const { mutate: refreshLosses } = losses
  const refreshAll = useCallback(() => {
    for (const refresh of [
      refreshBalances,
      refreshPositions,
      refreshOrders,
      refreshHistory,
      refreshClosed,
      refreshLosses,
    ])
      void refresh()
  }, [refreshBalances, refreshPositions, refreshOrders, refreshHistory, refreshClosed, refreshLosses])

  // a fill, liquidation or triggered stop arrives as a POSITION event: the lists are fetched again
  const onPositionEvent = useEffectEvent(refreshAll)
  useEffect(() => {
    if (positionEvent) onPositionEvent()
  }, [positionEvent])

  const openPositions = positions.data?.rows ?? []
  const openOrders = (orders.data ?? []).filter((order) => !hideOthers || order.symbol === pair.symbol)
  const pastOrders = (history.data ?? []).filter((order) => order.status !== 'open')
  const shareNumbers = new Map(pairs.map((candidate) => [candidate.symbol, candidate.shareNumber]))
  const priceScaleOf = (symbol: string) =>
    pairs.find((candidate) => candidate.symbol === symbol)?.baseScale ?? pair.baseScale

  return (
    <>
      <ContractForm pair={pair} balances={balances.data} onChanged={refreshAll} />
      <section className="panel trade-orders-area">
        <ListTabs
          tabs={[
            {
              value: 'positions',
              label: `${t('trade.positions')} (${openPositions.length})`,
              testId: 'positions-tab',
            },
            {
              value: 'orders',
              label: `${t('trade.openOrders')} (${openOrders.length})`,
              testId: 'open-orders-tab',
            },
            { value: 'history', label: t('desk.orderHistory'), testId: 'contract-history-tab' },
            { value: 'closed', label: t('positions.history'), testId: 'position-history-tab' },
          ]}
          value={listTab}
          onChange={setListTab}
          end={
            listTab === 'orders' && (
              <CancelAllButton
                count={openOrders.length}
                ids={openOrders.map((order) => order.id)}
                cancelOne={cancelContractOrder}
                onDone={refreshAll}
              />
            )
          }
        />
        {listTab === 'positions' && (
          <div className="position-list" data-testid="positions">
            <CloseAllPositions positions={openPositions} onDone={refreshAll} />
            {openPositions.length === 0 && <p className="muted empty-line">{t('trade.noPositions')}</p>}
            {openPositions.map((position) => (
              <PositionCard
                key={position.id}
                position={position}
                shareNumber={shareNumbers.get(position.symbol) ?? pair.shareNumber}
                tickPlaces={priceScaleOf(position.symbol)}
                loss={losses.data?.find((row) => row.positionId === position.id && row.status === 'active')}
                onChanged={refreshAll}
              />
            ))}
          </div>
        )}
        {listTab === 'closed' && (
          <PositionHistory positions={closed.data?.rows ?? []} priceScaleOf={priceScaleOf} />
        )}
        {listTab === 'orders' && <HideOtherPairs checked={hideOthers} onChange={setHideOthers} />}
        {(listTab === 'orders' || listTab === 'history') && (
          <ContractOrderTable
            symbol={pair.symbol}
            orders={listTab === 'orders' ? openOrders : pastOrders}
            history={listTab === 'history'}
            shareNumberOf={(symbol) => shareNumbers.get(symbol) ?? pair.shareNumber}
            priceScaleOf={priceScaleOf}
            onChanged={refreshAll}
          />
        )}
      </section>
    </>
  )
})
