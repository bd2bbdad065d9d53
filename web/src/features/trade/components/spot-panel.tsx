import type { SpotPair } from '@tradegate/shared'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useSpotOrders } from '../api/get-spot-orders'
import { SpotForm } from './spot-form'
import { SpotOrders } from './spot-orders'

/** Spot trading on one pair: the order form and the user's orders on the pair. */
export function SpotPanel({ pair }: { pair: SpotPair }) {
  const balances = useBalances()
  const open = useSpotOrders(pair.symbol, 'open')
  const all = useSpotOrders(pair.symbol, 'all')
  const refresh = () => {
    void balances.mutate()
    void open.mutate()
    void all.mutate()
  }
  return (
    <>
      <SpotForm pair={pair} balances={balances.data} onPlaced={refresh} />
      <SpotOrders open={open.data?.rows ?? []} all={all.data?.rows ?? []} onChanged={refresh} />
    </>
  )
}
