import { describe, expect, it } from 'vitest'
import { placedOrderOutcome } from './order-outcome'

describe('the outcome of a placed futures order', () => {
  it('says a fill opened the position and a resting order was placed', () => {
    expect(placedOrderOutcome({ status: 'filled', shares: '10', filledShares: '10' })).toEqual({
      key: 'trade.positionOpened',
    })
    expect(
      placedOrderOutcome({ status: 'filled', shares: '10', filledShares: '10', timeInForce: 'FOK' }),
    ).toEqual({ key: 'trade.positionOpened' })
    expect(
      placedOrderOutcome({ status: 'open', shares: '10', filledShares: '0', timeInForce: 'GTC' }),
    ).toEqual({ key: 'trade.orderPlaced' })
  })

  it('says an IOC filled in part, how much of how much, and that the rest was cancelled', () => {
    expect(
      placedOrderOutcome({ status: 'cancelled', shares: '10', filledShares: '3', timeInForce: 'IOC' }),
    ).toEqual({ key: 'trade.futures.partFilled_IOC', values: { filled: '3', shares: '10' } })
  })

  it('says an IOC or FOK that filled nothing was cancelled, naming which', () => {
    expect(
      placedOrderOutcome({ status: 'cancelled', shares: '10', filledShares: '0', timeInForce: 'IOC' }),
    ).toEqual({ key: 'trade.futures.notFilled_IOC' })
    expect(placedOrderOutcome({ status: 'cancelled', shares: '10', timeInForce: 'FOK' })).toEqual({
      key: 'trade.futures.notFilled_FOK',
    })
  })
})
