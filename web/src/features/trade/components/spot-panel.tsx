import { memo, useCallback } from 'react'
import type { SpotPair } from '@tradegate/shared'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useSpotOrders } from '../api/get-spot-orders'
import { SpotForm } from './spot-form'
import { SpotOrders } from './spot-orders'

/** Spot trading on one pair: the order form, the user's open orders on every pair and this pair's history. */
export const SpotPanel = memo(function SpotPanel({ pair }: { pair: SpotPair }) {
  const balances = useBalances()
  const open = useSpotOrders({ open: true })
  const all = useSpotOrders({ symbol: pair.symbol })
  // SWR's bound mutate functions keep their identity, so the refresh does too: the memoised form is not
  // rendered again when the order lists answer, only when the balances it shows do
  const { mutate: refreshBalances } = balances
  const { mutate: refreshOpen } = open
  const { mutate: refreshAll } = all
  const refresh = useCallback(() => {
    void refreshBalances()
    void refreshOpen()
    void refreshAll()
  }, [refreshBalances, refreshOpen, refreshAll])
  return (
    <>
      <SpotForm pair={pair} balances={balances.data} onPlaced={refresh} />
      <SpotOrders
        symbol={pair.symbol}
        open={open.data?.rows ?? []}
        all={all.data?.rows ?? []}
        onChanged={refresh}
      />
    </>
  )
})
