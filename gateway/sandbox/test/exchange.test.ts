import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXCHANGE_QUOTE_SECONDS, exchangeFigures, toDecimal } from '@tradegate/shared'
import type { Sandbox } from '../app'
import { fundedClient, startTestSandbox, type Client } from './helpers'

// Flash exchange: a quote holds its price for a stated number of seconds for the user it was given to,
// is used once, and the exchange charges its fee by the shared formula the client estimates with.

describe('sandbox flash exchange', () => {
  let sandbox: Sandbox
  // a clock the test moves forward, to pass a quote's time without waiting for it
  let skewMs = 0
  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock: () => Date.now() + skewMs })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  const fundedUser = () => fundedClient(sandbox, { usdt: '1000' })

  async function available(client: Client, coin: string) {
    const rows = await client.ok('assetBalance')
    return toDecimal(rows.find((row) => row.account === 'platform' && row.coin === coin)?.available ?? '0')
  }

  it('settles at the quoted price, even after the market moved, less the fee by the shared formula', async () => {
    const client = await fundedUser()
    const quote = await client.ok('exchangeQuote', { query: { from: 'usdt', to: 'btc' } })
    expect(quote).toMatchObject({ from: 'usdt', to: 'btc', validSeconds: EXCHANGE_QUOTE_SECONDS })
    expect(toDecimal(quote.feeRate).greaterThan(0)).toBe(true)
    const coinList = await client.ok('getCoinList')
    const btcPlaces = coinList.currencyList.find((pair) => pair.coin === 'btc')!.coinPrecision
    const before = await available(client, 'btc')
    await client.control('/sandbox/price', { symbol: 'btcusdt', price: '20000' })
    const result = await client.ok('currencyExchange', {
      body: { from: 'usdt', to: 'btc', amount: '900', quoteId: quote.quoteId },
    })
    const expected = exchangeFigures('900', quote.price, quote.feeRate, btcPlaces)
    expect(result).toMatchObject({
      paid: '900',
      received: expected.received.toFixed(),
      fee: expected.fee.toFixed(),
    })
    expect(toDecimal(result.fee ?? '0').greaterThan(0)).toBe(true)
    expect((await available(client, 'btc')).minus(before).toFixed()).toBe(expected.received.toFixed())
  })

  it('uses a quote once, only for its own user and pair, and never after its time', async () => {
    const client = await fundedUser()
    const other = await fundedUser()
    const exchange = (who: Client, quoteId: string, to = 'btc') =>
      who.refused('currencyExchange', { body: { from: 'usdt', to, amount: '10', quoteId } })

    const first = await client.ok('exchangeQuote', { query: { from: 'usdt', to: 'btc' } })
    expect(await exchange(other, first.quoteId)).toBe('unknownQuote')
    expect(await exchange(client, first.quoteId, 'eth')).toBe('unknownQuote')
    await client.ok('currencyExchange', {
      body: { from: 'usdt', to: 'btc', amount: '10', quoteId: first.quoteId },
    })
    expect(await exchange(client, first.quoteId)).toBe('unknownQuote')

    const late = await client.ok('exchangeQuote', { query: { from: 'usdt', to: 'btc' } })
    skewMs += EXCHANGE_QUOTE_SECONDS * 1000
    expect(await exchange(client, late.quoteId)).toBe('quoteExpired')
    expect(await client.refused('exchangeQuote', { query: { from: 'btc', to: 'btc' } })).toBe('sameCoin')
  })
})
