import type { Decimal } from 'decimal.js'
import { toDecimal, type SpotOrder } from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import { spotPairs } from '../markets/listings'
import type { SymbolTick } from '../markets/market'
import { AMOUNT_PLACES, text, truncate } from '../money/amounts'
import { holdLeg, releaseLeg, type Leg } from '../money/ledger'
import { idSequence, type SandboxState } from '../state'
import {
  ownRows,
  payFeeRebates,
  positiveAmount,
  requireFundPassword,
  requirePlaces,
  requireTabOpen,
} from './rules'

// Spot orders filled by the house at the live price. Amounts are quantities of the coin; the fee is
// taken in usdt. A limit order fills at the live price once that price reaches its limit.

interface UserSpotOrder extends SpotOrder {
  userId: string
  coin: string
  /** what the order holds frozen while open */
  frozen: string
}

export interface SpotSubmission {
  symbol: string
  side: 'buy' | 'sell'
  type: 'market' | 'limit'
  price?: string | number
  amount: string | number
  fundPwd?: string
}

export class SpotDesk {
  private readonly orders: UserSpotOrder[] = []
  private readonly nextId = idSequence()
  private readonly pairs = new Map(spotPairs().map((pair) => [pair.symbol, pair]))

  constructor(private readonly state: SandboxState) {}

  submit(user: User, input: SpotSubmission): SpotOrder {
    requireTabOpen(this.state, 'BBTrading', 'spotTradingClosed')
    const pair =
      this.pairs.get(input.symbol) ??
      refuse(this.state.market.has(input.symbol) ? 'notASpotPair' : 'unknownSymbol')
    requireFundPassword(
      this.state,
      user,
      this.state.settings.current.FUND_PASSWORD_SETTING.spot,
      input.fundPwd,
    )
    const quantity = positiveAmount(input.amount)
    requirePlaces(quantity, pair.coinPrecision, 'amountPrecisionExceeded')
    const allowed = {
      buy: { market: pair.marketBuy, limit: pair.limitedBuy },
      sell: { market: pair.marketSell, limit: pair.limitedSell },
    }[input.side][input.type]
    if (!allowed) refuse('orderTypeClosed')

    const livePrice = this.state.market.price(input.symbol)
    let limit = livePrice
    if (input.type === 'limit') {
      if (input.price === undefined) refuse('priceRequired')
      limit = positiveAmount(input.price, 'priceMustBePositive')
      requirePlaces(limit, pair.basePrecision, 'pricePrecisionExceeded')
    }
    const value = quantity.times(limit)
    if (value.lessThan(pair.orderMin)) refuse('orderBelowMinimum')
    if (value.greaterThan(pair.orderMax)) refuse('orderAboveMaximum')

    const order: UserSpotOrder = {
      id: this.nextId(),
      userId: user.id,
      coin: pair.coin,
      symbol: input.symbol,
      side: input.side,
      type: input.type,
      price: text(limit),
      amount: text(quantity),
      filledAmount: '0',
      filledPrice: '0',
      fee: '0',
      status: 'open',
      createdAt: this.state.clock(),
      frozen: '0',
    }
    if (input.type === 'market') {
      this.fill(order, livePrice, [])
    } else {
      // a buy holds the most it can cost, fee included; a sell holds the coins
      const hold =
        input.side === 'buy'
          ? truncate(value.times(toDecimal(pair.feeRate).plus(1)), AMOUNT_PLACES)
          : quantity
      const coin = input.side === 'buy' ? QUOTE_COIN : pair.coin
      this.state.ledger.apply({
        kind: 'spot',
        note: `limit ${input.side} #${order.id} placed`,
        legs: [holdLeg(user.id, 'platform', coin, hold)],
      })
      order.frozen = text(hold)
      if (this.crossed(order, livePrice)) this.fill(order, livePrice, this.release(order))
    }
    this.orders.unshift(order)
    return publicOrder(order)
  }

  /** Cancels an open order of the user's own and gives back what it held. */
  cancel(user: User, id: string): SpotOrder {
    const order = this.orders.find((row) => String(row.id) === id && row.userId === user.id)
    if (!order) refuse('unknownOrder')
    if (order.status !== 'open') refuse('orderNotOpen')
    this.state.ledger.apply({
      kind: 'spot',
      note: `limit ${order.side} #${order.id} cancelled`,
      legs: this.release(order),
    })
    order.status = 'cancelled'
    order.frozen = '0'
    return publicOrder(order)
  }

  list(userId: string, filter: { status?: string; symbol?: string }): SpotOrder[] {
    return ownRows(this.orders, userId, filter).map(publicOrder)
  }

  onTick(ticks: readonly SymbolTick[]): void {
    const prices = new Map(ticks.map((tick) => [tick.symbol, tick.price]))
    for (const order of this.orders) {
      const price = prices.get(order.symbol)
      if (order.status !== 'open' || !price || !this.crossed(order, price)) continue
      try {
        this.fill(order, price, this.release(order))
      } catch {
        // a fill that cannot be paid (never expected: the order holds its worst case) stays open
      }
    }
  }

  private crossed(order: UserSpotOrder, price: Decimal): boolean {
    return order.side === 'buy'
      ? price.lessThanOrEqualTo(order.price)
      : price.greaterThanOrEqualTo(order.price)
  }

  /** Legs that give back what an open limit order holds. */
  private release(order: UserSpotOrder): Leg[] {
    const held = toDecimal(order.frozen)
    const coin = order.side === 'buy' ? QUOTE_COIN : order.coin
    return [releaseLeg(order.userId, 'platform', coin, held)]
  }

  private fill(order: UserSpotOrder, price: Decimal, releaseLegs: Leg[]): void {
    const pair = this.pairs.get(order.symbol)!
    const quantity = toDecimal(order.amount)
    const value = quantity.times(price)
    const fee = truncate(value.times(pair.feeRate), AMOUNT_PLACES)
    const wallet = { userId: order.userId, account: 'platform' as const }
    const trade: Leg[] =
      order.side === 'buy'
        ? [
            { ...wallet, coin: QUOTE_COIN, available: value.plus(fee).negated() },
            { pool: 'house', coin: QUOTE_COIN, amount: value },
            { pool: 'house', coin: order.coin, amount: quantity.negated() },
            { ...wallet, coin: order.coin, available: quantity },
          ]
        : [
            { ...wallet, coin: order.coin, available: quantity.negated() },
            { pool: 'house', coin: order.coin, amount: quantity },
            { pool: 'house', coin: QUOTE_COIN, amount: value.negated() },
            { ...wallet, coin: QUOTE_COIN, available: value.minus(fee) },
          ]
    this.state.ledger.apply({
      kind: 'spot',
      note: `${order.side} ${text(quantity)} ${order.coin} at ${text(price)} (#${order.id})`,
      legs: [...releaseLegs, ...trade, { pool: 'fees', coin: QUOTE_COIN, amount: fee }],
    })
    order.status = 'filled'
    order.filledAmount = order.amount
    order.filledPrice = text(price)
    order.fee = text(fee)
    order.frozen = '0'
    payFeeRebates(this.state, order.userId, QUOTE_COIN, fee)
  }
}

function publicOrder({ userId: _owner, coin: _coin, frozen: _frozen, ...order }: UserSpotOrder): SpotOrder {
  return order
}
