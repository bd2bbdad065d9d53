import { useState } from 'react'
import { sanitiseAmount } from '../../../lib/order-math'
import { usePickedPrice } from './price-pick'

export type OrderType = 'market' | 'limit'

/**
 * An order form's type and price. A limit starts at the last price and stays where the user, or a
 * price tapped in the book, puts it; a market order is estimated at the last price.
 */
export function useOrderPrice({
  symbol,
  close,
  scale,
  initialType,
  limitAllowed,
}: {
  symbol: string
  /** the pair's last price, once the feed has one */
  close: string | undefined
  /** decimal places a price may have */
  scale: number
  initialType: OrderType
  /** whether a tapped book price may turn the form into a limit order */
  limitAllowed: () => boolean
}) {
  const [type, setType] = useState<OrderType>(initialType)
  // null until the user types or taps one: the limit then shows the last price
  const [typedPrice, setTypedPrice] = useState<string | null>(null)
  const lastPrice = close ? sanitiseAmount(close, scale) : ''
  const price = typedPrice ?? lastPrice
  usePickedPrice(symbol, (picked) => {
    if (limitAllowed()) setType('limit')
    setTypedPrice(sanitiseAmount(picked, scale))
  })
  return {
    type,
    price,
    /** the price totals and margins are worked out at */
    orderPrice: type === 'limit' ? price : (close ?? '0'),
    chooseType(next: OrderType) {
      setType(next)
      // the limit starts at the price of the moment, and stays there until changed
      if (next === 'limit' && typedPrice === null) setTypedPrice(lastPrice || null)
    },
    typePrice: (text: string) => setTypedPrice(sanitiseAmount(text, scale)),
  }
}
