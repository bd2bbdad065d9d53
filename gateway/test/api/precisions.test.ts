import { describe, expect, it } from 'vitest'
import { DEFAULT_COIN_PRECISION, coinPrecisions, precisionOf, type CoinList } from '@tradegate/shared'
import { precisionsOfCoinList } from '../../src/api/amounts'

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
    expect(gateway.of({ field: 'coin', kind: 'coin' }, coin)).toBe(precisionOf(client, coin))
  })

  it('give an unlisted coin the default places, not the 18-place cap', () => {
    expect(gateway.of({ field: 'coin', kind: 'coin' }, 'nosuchcoin')).toBe(DEFAULT_COIN_PRECISION)
  })
})
