import { Decimal } from 'decimal.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  FEE_PLACES,
  PNL_PLACES,
  VALUE_PLACES,
  showBalance,
  showCash,
  showFeeRate,
  showRate,
  showFee,
  showPercent,
  showPnl,
  showPrice,
  showQuantity,
  showValue,
} from './display'
import { contractPnl, mergedEntryPrice, tradeFee } from './trade-math'

const half = (places: number) => new Decimal(10).pow(-places).div(2)
/** a positive decimal with exactly up to `places` places, from 1 unit of the last place to `maxUnits` of them */
const decimalAt = (places: number, maxUnits = 10_000_000) =>
  fc.integer({ min: 1, max: maxUnits }).map((units) => new Decimal(units).div(new Decimal(10).pow(places)))

describe('each kind of figure', () => {
  it.each<[string, () => string, string]>([
    ['a loss is rounded, not cut', () => showPnl('-0.169278'), '-0.1693'],
    ['a gain is rounded half up', () => showPnl('0.00005'), '0.0001'],
    ['a loss that rounds to nothing shows 0', () => showPnl('-0.00004'), '0.0000'],
    ['an entry of 150.6159 at tick 0.01 shows 150.62', () => showPrice('150.6159', 2), '150.62'],
    ['an entry of 150.6149 at tick 0.01 shows 150.61', () => showPrice('150.6149', 2), '150.61'],
    ['a price at tick 0.1', () => showPrice('2999.95', 1), '3000.0'],
    ['a price without a pair takes the magnitude rule, rounded', () => showPrice('150.6159'), '150.62'],
    ['a fee is rounded', () => showFee('0.01234567'), '0.0123'],
    ['a fee rounds half up', () => showFee('0.00125'), '0.0013'],
    ['a value is rounded to cents', () => showValue('1234.565'), '1234.57'],
    ['a quantity at the lot places', () => showQuantity('0.0123456', 4), '0.0123'],
    ['a quantity rounds half up', () => showQuantity('0.00125', 4), '0.0013'],
    ['a balance is cut: never more than held', () => showBalance('1.999999', 2), '1.99'],
    ['a small negative balance shows plain zero', () => showBalance('-0.001', 2), '0.00'],
    ['a percentage', () => showPercent('12.345'), '12.35'],
    ['cash paid is rounded', () => showCash('12.34565'), '12.3457'],
    ['a funding rate in hundredths of a percent', () => showRate('0.01005'), '0.0101'],
    ['a funding rate keeps its places', () => showRate('0.01'), '0.0100'],
    ['a fee rate reads as stated', () => showFeeRate('0.2'), '0.2'],
    ['a fee rate keeps the digits it has', () => showFeeRate('0.075'), '0.075'],
    ['a fee rate is rounded at 4 places', () => showFeeRate('0.012345'), '0.0123'],
    ['a whole fee rate has no point', () => showFeeRate('1.0000'), '1'],
    ['an empty figure is zero', () => showPnl(undefined), '0.0000'],
  ])('%s', (_case, show, expected) => {
    expect(show()).toBe(expected)
  })
})

describe('what is shown adds up by hand', () => {
  // The exchange quotes prices at the tick and sizes at the lot; PnL, fees and totals derive from them.
  const tick = fc.integer({ min: 0, max: 4 })
  const lot = fc.integer({ min: 0, max: 4 })

  it('PnL shown is (mark shown − entry shown) × size shown within half a unit of its last place', () => {
    fc.assert(
      fc.property(
        tick.chain((tickPlaces) =>
          fc.tuple(
            fc.constant(tickPlaces),
            decimalAt(tickPlaces),
            decimalAt(tickPlaces),
            lot.chain((lotPlaces) => decimalAt(lotPlaces, 100_000)),
            fc.constantFrom<'long' | 'short'>('long', 'short'),
          ),
        ),
        ([tickPlaces, entry, mark, size, direction]) => {
          const pnl = contractPnl(direction, size.times(entry), entry, mark)
          const entryShown = new Decimal(showPrice(entry, tickPlaces))
          const markShown = new Decimal(showPrice(mark, tickPlaces))
          const sizeShown = new Decimal(size.toFixed())
          const move = markShown.minus(entryShown)
          const byHand = sizeShown.times(direction === 'long' ? move : move.negated())
          const shown = new Decimal(showPnl(pnl))
          expect(shown.minus(byHand).abs().lessThanOrEqualTo(half(PNL_PLACES))).toBe(true)
        },
      ),
    )
  })

  it('an entry averaged finer than the tick moves the hand PnL by at most half a tick per coin', () => {
    fc.assert(
      fc.property(
        tick.chain((tickPlaces) =>
          fc.tuple(
            fc.constant(tickPlaces),
            decimalAt(tickPlaces),
            decimalAt(tickPlaces),
            decimalAt(tickPlaces),
            decimalAt(2, 100_000),
            decimalAt(2, 100_000),
          ),
        ),
        ([tickPlaces, firstPrice, secondPrice, mark, firstSize, secondSize]) => {
          const value = firstSize.times(firstPrice).plus(secondSize.times(secondPrice))
          const entry = mergedEntryPrice(
            firstSize.times(firstPrice),
            firstPrice,
            secondSize.times(secondPrice),
            secondPrice,
          )
          const coins = firstSize.plus(secondSize)
          const pnl = contractPnl('long', value, entry, mark)
          const entryShown = new Decimal(showPrice(entry, tickPlaces))
          const byHand = coins.times(new Decimal(showPrice(mark, tickPlaces)).minus(entryShown))
          const bound = half(PNL_PLACES)
            .plus(coins.times(half(tickPlaces)))
            // the exchange cuts the merged entry to 8 places (a shift the PnL carries, grown by mark over
            // entry) and the PnL to 8 places
            .plus(value.times(mark).times('1e-8').div(entry.pow(2)))
            .plus('1e-8')
          expect(new Decimal(showPnl(pnl)).minus(byHand).abs().lessThanOrEqualTo(bound)).toBe(true)
        },
      ),
    )
  })

  it('a fee shown is the value shown × the rate, within half a unit of each', () => {
    fc.assert(
      fc.property(
        decimalAt(4, 1_000_000_000),
        fc.integer({ min: 1, max: 100 }).map((units) => new Decimal(units).div(10_000)),
        (value, rate) => {
          const fee = tradeFee(value, rate)
          const valueShown = new Decimal(showValue(value))
          const byHand = valueShown.times(rate)
          const bound = half(FEE_PLACES)
            .plus(rate.times(half(VALUE_PLACES)))
            .plus('1e-8')
          expect(new Decimal(showFee(fee)).minus(byHand).abs().lessThanOrEqualTo(bound)).toBe(true)
        },
      ),
    )
  })

  it('a total shown is price shown × amount shown within half a cent', () => {
    fc.assert(
      fc.property(
        tick.chain((tickPlaces) => fc.tuple(fc.constant(tickPlaces), decimalAt(tickPlaces))),
        lot.chain((lotPlaces) => fc.tuple(fc.constant(lotPlaces), decimalAt(lotPlaces, 100_000))),
        ([tickPlaces, price], [lotPlaces, amount]) => {
          const byHand = new Decimal(showPrice(price, tickPlaces)).times(showQuantity(amount, lotPlaces))
          const shown = new Decimal(showValue(price.times(amount)))
          expect(shown.minus(byHand).abs().lessThanOrEqualTo(half(VALUE_PLACES))).toBe(true)
        },
      ),
    )
  })

  it('every figure but a balance is the nearest at its places, never more than half a unit off', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }).map((units) => new Decimal(units).div(1e8)),
        fc.integer({ min: 0, max: 6 }),
        (value, places) => {
          for (const shown of [showPrice(value, places), showQuantity(value, places)])
            expect(new Decimal(shown).minus(value).abs().lessThanOrEqualTo(half(places))).toBe(true)
          for (const [shown, kindPlaces] of [
            [showPnl(value), PNL_PLACES],
            [showFee(value), FEE_PLACES],
            [showValue(value), VALUE_PLACES],
          ] as const)
            expect(new Decimal(shown).minus(value).abs().lessThanOrEqualTo(half(kindPlaces))).toBe(true)
          // a balance is never shown above what is held
          expect(new Decimal(showBalance(value, places)).abs().lessThanOrEqualTo(value.abs())).toBe(true)
        },
      ),
    )
  })
})
