import { useEffect, useEffectEvent, useState } from 'react'
import { toDecimal, type OptionPosition } from '@tradegate/shared'
import { LoadingBlock } from '../../../components/loading-block'
import { NoData } from '../../../components/no-data'
import { useTicker, useUserEvents } from '../../../lib/live/stream-hooks'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useOptionChain } from '../api/get-option-chain'
import { useOptionPositions } from '../api/get-option-positions'
import { noteExchangeTime, useExchangeNow } from '../lib/exchange-clock'
import { SPOT_SAMPLE_MS, useSampled } from '../lib/use-sampled'
import type { OptionPick } from '../lib/chain-types'
import { OptionChainPanel } from './option-chain'
import { OptionPositions } from './option-positions'
import { OptionRules } from './option-rules'
import { OrderTicket } from './order-ticket'
import { SettlementResult } from './settlement-result'
import './option.css'

/** Option trading on one coin: the chain and the ticket, then positions and the rules. */
export function OptionTrading({ coin }: { coin: string }) {
  const chain = useOptionChain(coin)
  const now = useExchangeNow()
  const ticker = useTicker(chain.data?.symbol)
  const settlement = useUserEvents('SETTLEMENT')
  const balances = useBalances()
  const positions = { open: useOptionPositions('open'), settled: useOptionPositions('settled') }
  const [chosenExpiry, setChosenExpiry] = useState<number | null>(null)
  const [chosenPick, setPick] = useState<OptionPick | null>(null)
  // a pick in an expiry that has passed is let go
  const pick = chosenPick && now < chosenPick.expiresAt ? chosenPick : null

  const data = chain.data?.coin === coin ? chain.data : undefined
  const expiry = data?.expiries.find((row) => row.expiresAt === chosenExpiry) ?? data?.expiries[0]
  const spot = useSampled(ticker?.close, SPOT_SAMPLE_MS) ?? data?.spot
  const settled =
    settlement?.data.product === 'option' ? (settlement.data as unknown as OptionPosition) : null
  const refreshPositions = () => {
    void positions.open.mutate()
    void positions.settled.mutate()
  }

  // an expiry that has passed leaves the chain: read it again
  const soonest = data?.expiries[0]?.expiresAt
  const rolled = soonest !== undefined && now >= soonest
  const { mutate: reloadChain } = chain
  useEffect(() => {
    if (rolled) void reloadChain()
  }, [rolled, reloadChain])
  // a price that has left the listed strikes: the exchange lists new ones around it
  const first = expiry?.strikes[0]
  const last = expiry?.strikes.at(-1)
  const outside =
    !!spot && !!first && !!last && (toDecimal(spot).lessThan(first) || toDecimal(spot).greaterThan(last))
  useEffect(() => {
    if (outside) void reloadChain()
  }, [outside, reloadChain])
  const settle = useEffectEvent((ts: number) => {
    if (!settled) return
    // the settlement is stamped in exchange time, which may have moved on since the chain was read
    noteExchangeTime(ts)
    void reloadChain()
    refreshPositions()
    void balances.mutate()
  })
  useEffect(() => {
    if (settlement) settle(settlement.ts)
  }, [settlement])

  return (
    <>
      <div className="option-desk trade-form-area">
        {!data || !expiry ? (
          <div className="panel">{chain.error ? <NoData /> : <LoadingBlock />}</div>
        ) : (
          <>
            <OptionChainPanel
              chain={data}
              expiry={expiry}
              spot={spot}
              now={now}
              picked={pick}
              onExpiry={setChosenExpiry}
              onPick={setPick}
            />
            <OrderTicket
              key={pick ? `${pick.kind}|${pick.strike}|${pick.expiresAt}` : 'none'}
              chain={data}
              pick={pick}
              spot={spot}
              now={now}
              onBought={refreshPositions}
            />
          </>
        )}
      </div>
      <div className="option-books trade-orders-area">
        {settled && <SettlementResult position={settled} />}
        <OptionPositions now={now} positions={positions} />
        <OptionRules />
      </div>
    </>
  )
}
