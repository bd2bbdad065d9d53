import { describe, expect, it } from 'vitest'
import { DEFAULT_COIN_PRECISION, coinPrecisions, precisionOf, type CoinList } from '@tradegate/shared'
import { precisionsOf, precisionsOfCoinList, productCoinsOf } from '../../src/api/amounts'

// The gateway refuses an amount by the same places the client shows and lets a user type: both read
// them through the shared `precisionOf`, for a coin the list names and for one it does not.

const list = {
  currencyList: [{ symbol: 'btcusdt', coin: 'btc', baseCoin: 'usdt', coinPrecision: 5, basePrecision: 2 }],
  contractList: [{ symbol: 'ethusdt', coin: 'eth', baseCoin: 'usdt', coinScale: 3, baseScale: 6 }],
} as unknown as CoinList

describe("the gateway's coin places", () => {
  const gateway = precisionsOfCoinList({ code: 200, data: list })!
  const client = coinPrecisions(list)

  it.each(['btc', 'USDT', 'eth', 'nosuchcoin'])('agree with the client for %s', (coin) => {
    expect(gateway.of({ field: 'coin', kind: 'coin' }, { coin })).toBe(precisionOf(client, coin))
  })

  it('give an unlisted coin the default places, not the 18-place cap', () => {
    expect(gateway.of({ field: 'coin', kind: 'coin' }, { coin: 'nosuchcoin' })).toBe(DEFAULT_COIN_PRECISION)
  })
})

describe('places by every kind of scale', () => {
  const products = { finance: productCoinsOf({ code: 200, data: [{ id: 1, coin: 'BTC' }] }) }
  const gateway = precisionsOf({ code: 200, data: list }, products)
  const client = coinPrecisions(list)

  it("counts a subscription in its product's coin, and an unlisted product by the default places", () => {
    const scale = { product: 'finance', field: 'productId' } as const
    expect(gateway.of(scale, { productId: 1 })).toBe(precisionOf(client, 'btc'))
    expect(gateway.of(scale, { productId: 2 })).toBe(DEFAULT_COIN_PRECISION)
    expect(gateway.of({ product: 'proxy', field: 'productId' }, { productId: 1 })).toBe(
      DEFAULT_COIN_PRECISION,
    )
  })

  it('counts a fixed coin by its places and a fixed count as written', () => {
    expect(gateway.of({ coin: 'usdt' }, {})).toBe(precisionOf(client, 'usdt'))
    expect(gateway.of({ places: 0 }, {})).toBe(0)
  })

  it('without a coin list gives coins the default places, never the 18-place cap', () => {
    const blind = precisionsOf(null)
    expect(blind.of({ coin: 'usdt' }, {})).toBe(DEFAULT_COIN_PRECISION)
    expect(blind.of({ product: 'proxy', field: 'productId' }, { productId: 11 })).toBe(DEFAULT_COIN_PRECISION)
    expect(blind.of({ places: 0 }, {})).toBe(0)
  })
})
