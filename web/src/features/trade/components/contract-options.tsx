import { useState } from 'react'
import type { ContractOrderType, TimeInForce, TriggerBy } from '@tradegate/shared'
import { sanitiseAmount } from '../../../lib/order-math'

/**
 * A contract order's kind and what goes with it: the trigger of a stop order and the price it
 * watches, a limit's time in force and post-only, and reduce-only. Only what the kind takes is sent;
 * contract-option-fields.tsx draws them.
 */
export function useContractOptions(
  scale: number,
  /** the form's market-or-limit price state: a price tapped in the book makes the order a limit */
  order: { type: 'market' | 'limit'; chooseType(type: 'market' | 'limit'): void },
) {
  const [chosen, choose] = useState<ContractOrderType>('market')
  const [trigger, setTrigger] = useState('')
  const [triggerBy, setTriggerBy] = useState<TriggerBy>('last')
  const [timeInForce, setTimeInForce] = useState<TimeInForce>('GTC')
  const [postOnly, setPostOnly] = useState(false)
  const [reduceOnly, setReduceOnly] = useState(false)
  const type = chosen === 'market' && order.type === 'limit' ? 'limit' : chosen
  const stop = type === 'stopMarket' || type === 'stopLimit'
  const canPostOnly = type === 'limit' && timeInForce === 'GTC'
  return {
    type,
    setType(next: ContractOrderType) {
      choose(next)
      order.chooseType(next === 'limit' || next === 'stopLimit' ? 'limit' : 'market')
    },
    stop,
    canPostOnly,
    /** the kind rests at a price the user types */
    priced: type === 'limit' || type === 'stopLimit',
    trigger,
    setTrigger: (text: string) => setTrigger(sanitiseAmount(text, scale)),
    triggerBy,
    setTriggerBy,
    timeInForce,
    setTimeInForce,
    postOnly,
    setPostOnly,
    reduceOnly,
    setReduceOnly,
    blocked: stop && !trigger,
    body: {
      type,
      ...(stop ? { triggerPrice: trigger, triggerBy } : {}),
      ...(type === 'limit' ? { timeInForce } : {}),
      ...(canPostOnly && postOnly ? { postOnly: true } : {}),
      ...(reduceOnly ? { reduceOnly: true } : {}),
    },
    reset: () => setTrigger(''),
  }
}

export type ContractOptions = ReturnType<typeof useContractOptions>
