import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { DEFAULT_COIN_PRECISION, coinPrecisions, exactText, precisionOf } from './coin-precision'

// One rule for a coin's places, read by the client (shown digits, Max, typed-digit refusal) and by the
// gateway (refused amounts): the finest places any pair names, else DEFAULT_COIN_PRECISION.

const spot = (coin: string, baseCoin: string, coinPrecision: number, basePrecision: number) =>
  ({ coin, baseCoin, coinPrecision, basePrecision }) as never
const contract = (coin: string, baseCoin: string, coinScale: number, baseScale: number) =>
  ({ coin, baseCoin, coinScale, baseScale }) as never

describe('coin precision', () => {
  it("keeps a coin's finest places over every pair that names it, by lower-case name", () => {
    const list = {
      currencyList: [spot('BTC', 'usdt', 5, 2), spot('eth', 'USDT', 4, 6)],
      contractList: [contract('btc', 'usdt', 7, 3)],
    }
    const precisions = coinPrecisions(list)
    expect(precisionOf(precisions, 'btc')).toBe(7)
    expect(precisionOf(precisions, 'USDT')).toBe(6)
    expect(precisionOf(precisions, 'Eth')).toBe(4)
  })

  it('gives a coin no pair names the default places, as it does with no list at all', () => {
    const precisions = coinPrecisions({ currencyList: [spot('btc', 'usdt', 5, 2)], contractList: [] })
    expect(precisionOf(precisions, 'nosuchcoin')).toBe(DEFAULT_COIN_PRECISION)
    expect(precisionOf(new Map(), 'btc')).toBe(DEFAULT_COIN_PRECISION)
  })

  it('never answers coarser places than a pair names, nor any for an unnamed coin but the default', () => {
    const coin = fc.constantFrom('btc', 'eth', 'usdt', 'sol', 'doge')
    const places = fc.integer({ min: 0, max: 18 })
    const pair = fc.tuple(coin, coin, places, places)
    fc.assert(
      fc.property(fc.array(pair), fc.array(pair), coin, (spots, contracts, asked) => {
        const precisions = coinPrecisions({
          currencyList: spots.map(([c, b, cp, bp]) => spot(c, b, cp, bp)),
          contractList: contracts.map(([c, b, cs, bs]) => contract(c, b, cs, bs)),
        })
        const named = [
          ...spots.flatMap(
            ([c, b, cp, bp]) =>
              [
                [c, cp],
                [b, bp],
              ] as const,
          ),
          ...contracts.flatMap(
            ([c, b, cs, bs]) =>
              [
                [c, cs],
                [b, bs],
              ] as const,
          ),
        ].filter(([name]) => name === asked)
        const expected = named.length ? Math.max(...named.map(([, value]) => value)) : DEFAULT_COIN_PRECISION
        expect(precisionOf(precisions, asked.toUpperCase())).toBe(expected)
      }),
    )
  })

  it('writes an amount at its places when they hold it and with every digit when they do not', () => {
    // a balance as the exchange stores it, eleven places with zeros past the coin's six
    expect(exactText('2580.12000000000', 6)).toBe('2580.12')
    expect(exactText('100', 8)).toBe('100.00')
    // 0.0000068 BTC at five places would read 0.00000: it keeps its digits
    expect(exactText('0.0000068', 5)).toBe('0.0000068')
    expect(exactText('-0.000001', 2)).toBe('-0.000001')
  })
})
