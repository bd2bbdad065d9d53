import { toDecimal, type ContractOrder } from '@tradegate/shared'

// What a futures order did the moment it was placed, as its outcome says it: "Order placed" would
// hide that an IOC or FOK order the book could not fill (whole, for FOK) was cancelled there and then.

export interface Outcome {
  /** the i18n key of the text */
  key: string
  values?: Record<string, string>
}

/** The outcome of a placed futures order, from the order the exchange answered with. */
export function placedOrderOutcome(
  order: Pick<ContractOrder, 'status' | 'shares' | 'filledShares' | 'timeInForce'>,
): Outcome {
  if (order.status === 'filled') return { key: 'trade.positionOpened' }
  const tif = order.timeInForce
  if (order.status === 'cancelled' && (tif === 'IOC' || tif === 'FOK')) {
    const filled = order.filledShares ?? '0'
    // only an IOC fills in part: a FOK fills whole or not at all
    if (tif === 'IOC' && toDecimal(filled).greaterThan(0))
      return { key: 'trade.futures.partFilled_IOC', values: { filled, shares: order.shares } }
    return { key: `trade.futures.notFilled_${tif}` }
  }
  return { key: 'trade.orderPlaced' }
}
