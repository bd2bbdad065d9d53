import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { ContractPair } from '@tradegate/shared'
import { useTicker } from '../../../lib/live/stream-hooks'
import { useSettings } from '../../../lib/settings'
import { showOutcome } from '../../../lib/toast'
import { useSubmit } from '../../../lib/submit'
import { leverageChoices, sanitiseAmount } from '../../../lib/order-math'
import { submitContractOrder } from '../api/submit-contract-order'
import { findContractOrder } from '../api/find-trade-actions'
import { useOrderPrice } from '../lib/order-price'
import { placedOrderOutcome } from '../lib/order-outcome'
import { useContractOptions } from './contract-options'
import { useExitEntry } from './exit-fields'

export type Direction = 'long' | 'short'

/**
 * What a contract order is made of and how it is sent: direction, leverage, shares, the fund
 * password, the kind with its options, the take-profit and stop-loss, and the outcome flow.
 * contract-form.tsx draws it.
 */
export function useContractOrder(pair: ContractPair, onChanged: () => void) {
  const { t } = useTranslation()
  const settings = useSettings()
  const ticker = useTicker(pair.symbol)
  // kept while the pair is: the leverage slider is memoised, and the form renders on every price tick
  const leverages = useMemo(() => leverageChoices(pair), [pair])
  const [direction, setDirection] = useState<Direction>('long')
  const [leverage, setLeverage] = useState(leverages[1] ?? leverages[0] ?? 1)
  const [shares, setShares] = useState('')
  const [fundPwd, setFundPwd] = useState('')
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.orders',
    onSettled: onChanged,
    lookup: (sentAt) => findContractOrder({ symbol: pair.symbol, direction, shares }, sentAt),
  })
  const order = useOrderPrice({
    symbol: pair.symbol,
    close: ticker?.close,
    scale: pair.baseScale,
    initialType: 'market',
    limitAllowed: () => true,
  })
  const options = useContractOptions(pair.baseScale, order)
  // a stop-market opens at about its trigger; every other kind at its limit or the market
  const orderPrice = options.type === 'stopMarket' && options.trigger ? options.trigger : order.orderPrice
  const exits = useExitEntry(direction, orderPrice, pair.baseScale)
  const fundPasswordNeeded = settings.FUND_PASSWORD_SETTING.contract

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void flow.run(async (signal) => {
      const placed = await submitContractOrder(
        {
          symbol: pair.symbol,
          direction,
          leverage,
          shares,
          ...options.body,
          ...(options.priced ? { price: order.price } : {}),
          ...(fundPasswordNeeded ? { fundPwd } : {}),
          ...(options.reduceOnly ? {} : exits.body),
        },
        { signal },
      )
      const outcome = placedOrderOutcome(placed)
      showOutcome(t(outcome.key, outcome.values))
      setShares('')
      exits.reset()
      options.reset()
    })
  }

  return {
    leverages,
    direction,
    setDirection,
    leverage,
    setLeverage,
    shares,
    setShares: (text: string) => setShares(sanitiseAmount(text, 0)),
    fundPassword: { needed: fundPasswordNeeded, value: fundPwd, onChange: setFundPwd },
    flow,
    order,
    options,
    orderPrice,
    exits,
    submit,
  }
}
