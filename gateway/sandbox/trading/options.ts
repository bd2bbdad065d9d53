import type { Decimal } from 'decimal.js'
import {
  blackScholes,
  intrinsicValue,
  optionBid,
  optionOrderCost,
  optionSaleProceeds,
  toDecimal,
  yearsUntil,
  type OptionChain,
  type OptionKind,
  type OptionPosition,
} from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { QUOTE_COIN, type Instrument } from '../markets/catalogue'
import {
  OPTION_RATE,
  OptionSeriesBook,
  lotSizeOf,
  maxQuantityOf,
  optionFeeOf,
} from '../markets/option-series'
import { AMOUNT_PLACES, text, truncate } from '../money/amounts'
import { idSequence, type SandboxState } from '../state'
import { payFeeRebates, positiveAmount } from './rules'

// Options: European calls and puts on the option coins, bought (never written) by users from the
// house at the Black-Scholes premium, sold back to it before expiry at its bid (the premium less a
// spread), or cash-settled in usdt at expiry against the feed's price.

interface UserOptionPosition extends OptionPosition {
  userId: string
}

export interface OptionSubmission {
  coin: string
  expiresAt: number
  strike: string
  kind: OptionKind
  quantity: string | number
  maxPremium: string | number
}

export class OptionDesk {
  private readonly positions: UserOptionPosition[] = []
  private readonly nextId = idSequence()
  private readonly series = new OptionSeriesBook()

  constructor(private readonly state: SandboxState) {}

  chain(coin: string): OptionChain {
    const instrument = this.instrumentOf(coin)
    const now = this.state.clock()
    const spot = this.state.market.price(instrument.symbol)
    const volatility = this.state.market.annualVolatility
    return {
      coin: instrument.coin,
      symbol: instrument.symbol,
      now,
      spot: text(spot),
      volatility: text(volatility),
      rate: OPTION_RATE,
      ...optionFeeOf(instrument),
      lotSize: text(lotSizeOf(instrument)),
      maxQuantity: text(maxQuantityOf(instrument)),
      expiries: this.series.chain(instrument, spot, volatility, now),
    }
  }

  buy(user: User, input: OptionSubmission): OptionPosition {
    const instrument = this.instrumentOf(input.coin)
    const now = this.state.clock()
    if (input.expiresAt <= now) refuse('options.seriesExpired')
    // lists the strikes around the spot now, so a strike the chain offers is always orderable
    this.chain(instrument.coin)
    const strike = toDecimal(input.strike)
    if (!this.series.isListed(instrument.symbol, input.expiresAt, strike)) refuse('options.seriesUnknown')

    const quantity = positiveAmount(input.quantity)
    const lot = lotSizeOf(instrument)
    if (quantity.lessThan(lot)) refuse('options.quantityBelowMinimum')
    if (!quantity.modulo(lot).isZero()) refuse('options.quantityNotWholeLots')
    if (quantity.greaterThan(maxQuantityOf(instrument))) refuse('options.quantityAboveMaximum')

    const spot = this.state.market.price(instrument.symbol)
    const premium = this.premiumOf({ ...input, strike: text(strike) }, spot, now)
    if (premium.isZero()) refuse('options.worthless')
    if (premium.greaterThan(toDecimal(input.maxPremium))) refuse('options.premiumAboveLimit')
    const fee = optionFeeOf(instrument)
    const { cost, fee: feeAmount, total } = optionOrderCost(quantity, premium, fee)

    const position: UserOptionPosition = {
      id: this.nextId(),
      userId: user.id,
      coin: instrument.coin,
      symbol: instrument.symbol,
      kind: input.kind,
      strike: text(strike),
      expiresAt: input.expiresAt,
      quantity: text(quantity),
      premium: text(premium),
      cost: text(cost),
      fee: text(feeAmount),
      status: 'open',
      settlePrice: '',
      payout: '0',
      createdAt: now,
    }
    this.state.ledger.apply({
      kind: 'option',
      note: `option #${position.id} bought`,
      legs: [
        { userId: user.id, account: 'platform', coin: QUOTE_COIN, available: total.negated() },
        { pool: 'house', coin: QUOTE_COIN, amount: cost },
        { pool: 'fees', coin: QUOTE_COIN, amount: feeAmount },
      ],
    })
    payFeeRebates(this.state, user.id, QUOTE_COIN, feeAmount)
    this.positions.unshift(position)
    return publicPosition(position)
  }

  /** Sells an open position back to the house at the bid now, if that is at least `minPrice` a unit. */
  sell(user: User, input: { id: number; minPrice: string | number }): OptionPosition {
    const position = this.positions.find((row) => row.id === input.id && row.userId === user.id)
    if (!position) refuse('unknownPosition')
    const now = this.state.clock()
    if (position.status !== 'open' || position.expiresAt <= now) refuse('options.positionClosed')
    const instrument = this.instrumentOf(position.coin)
    const spot = this.state.market.price(instrument.symbol)
    const bid = optionBid(this.premiumOf(position, spot, now))
    if (bid.isZero()) refuse('options.noBid')
    if (bid.lessThan(toDecimal(input.minPrice))) refuse('options.bidBelowLimit')
    const { proceeds, fee, net } = optionSaleProceeds(position.quantity, bid, optionFeeOf(instrument))
    this.state.ledger.apply({
      kind: 'option',
      note: `option #${position.id} sold`,
      legs: [
        { pool: 'house', coin: QUOTE_COIN, amount: proceeds.negated() },
        { pool: 'fees', coin: QUOTE_COIN, amount: fee },
        { userId: user.id, account: 'platform', coin: QUOTE_COIN, available: net },
      ],
    })
    payFeeRebates(this.state, user.id, QUOTE_COIN, fee)
    position.status = 'settled'
    position.settlePrice = text(spot)
    position.salePrice = text(bid)
    position.saleFee = text(fee)
    position.payout = text(net)
    this.state.profits.add(user.id, net.minus(position.cost).minus(position.fee))
    return publicPosition(position)
  }

  /** The Black-Scholes premium a unit of this series is worth at `spot` now: the ask. */
  private premiumOf(
    series: Pick<OptionPosition, 'kind' | 'strike' | 'expiresAt'>,
    spot: Decimal,
    now: number,
  ): Decimal {
    return blackScholes({
      kind: series.kind,
      spot,
      strike: series.strike,
      years: yearsUntil(series.expiresAt, now),
      volatility: this.state.market.annualVolatility,
      rate: OPTION_RATE,
    }).premium
  }

  list(userId: string, status?: 'open' | 'settled'): OptionPosition[] {
    return this.positions
      .filter((row) => row.userId === userId && (!status || row.status === status))
      .map(publicPosition)
  }

  /** Settles every position whose expiry has come, at the price the feed shows now. */
  onTick(now: number): void {
    for (const position of this.positions) {
      if (position.status === 'open' && position.expiresAt <= now) this.settle(position)
    }
  }

  private settle(position: UserOptionPosition): void {
    const price = this.state.market.price(position.symbol)
    const payout = truncate(
      toDecimal(position.quantity).times(intrinsicValue(position.kind, price, position.strike)),
      AMOUNT_PLACES,
    )
    if (payout.greaterThan(0)) {
      this.state.ledger.apply({
        kind: 'option',
        note: `option #${position.id} settled`,
        legs: [
          { pool: 'house', coin: QUOTE_COIN, amount: payout.negated() },
          { userId: position.userId, account: 'platform', coin: QUOTE_COIN, available: payout },
        ],
      })
    }
    position.status = 'settled'
    position.settlePrice = text(price)
    position.payout = text(payout)
    this.state.profits.add(position.userId, payout.minus(position.cost).minus(position.fee))
    const event = this.state.notices.add(position.userId, {
      kind: 'optionSettled',
      symbol: position.symbol,
      side: position.kind,
      qty: position.quantity,
      price: text(price),
      coin: QUOTE_COIN,
      amount: text(payout),
    })
    this.state.publish('SETTLEMENT', position.userId, {
      product: 'option',
      ...publicPosition(position),
      event,
    })
  }

  private instrumentOf(coin: string): Instrument {
    const instrument = this.state.market.instrumentOfCoin(coin.toLowerCase())
    return instrument?.second ? instrument : refuse('options.unknownCoin')
  }
}

function publicPosition({ userId: _owner, ...position }: UserOptionPosition): OptionPosition {
  return position
}
