import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  blackScholes,
  intrinsicValue,
  noticeOf,
  optionBid,
  optionOrderCost,
  optionSaleProceeds,
  BUNDLE_LANGUAGES,
  OPTION_BID_SPREAD,
  toDecimal,
  yearsUntil,
  type OptionChain,
  type OptionKind,
} from '@tradegate/shared'
import type { Sandbox } from '../app'
import { Client, eventually, openFeed, registeredClient, startTestSandbox, type FeedSocket } from './helpers'

// Options end to end against the sandbox: the chain, buying a call and a put, the price moved by the
// control call, sandbox time moved past expiry, the payouts in usdt, the ledger and the SETTLEMENT event.

const LIMIT_ALLOWANCE = '1.5'

function premiumNow(chain: OptionChain, kind: OptionKind, strike: string, expiresAt: number) {
  return blackScholes({
    kind,
    spot: chain.spot,
    strike,
    years: yearsUntil(expiresAt, chain.now),
    volatility: chain.volatility,
    rate: chain.rate,
  }).premium
}

describe('sandbox options', () => {
  let sandbox: Sandbox
  let trader: Client
  let traderId: string
  let feed: FeedSocket

  beforeAll(async () => {
    sandbox = await startTestSandbox()
    feed = await openFeed(sandbox, true)
  })
  // a trader of each test's own: what it holds and was paid is that test's alone, whatever ran before
  beforeEach(async () => {
    trader = await registeredClient(sandbox)
    traderId = (await trader.ok('userInfo')).userId
    await trader.control('/sandbox/deposit', { userId: traderId, coin: 'usdt', amount: '20000' })
  })
  afterAll(async () => {
    await feed.close()
    await sandbox.close()
  })

  const usdt = async (client: Client) => {
    const balances = await client.ok('assetBalance')
    return toDecimal(balances.find((row) => row.coin === 'usdt' && row.account === 'platform')?.available)
  }

  it('lists rolling expiries with strikes around the spot, the walk volatility and the fee', async () => {
    const chain = await new Client(sandbox.url).ok('optionChain', { query: { coin: 'btc' } })
    expect(chain).toMatchObject({ coin: 'btc', symbol: 'btcusdt', rate: '0.05', feeType: 1, feeValue: '1' })
    expect(chain.lotSize).toBe('0.001')
    // the walk moves about 6.6 % a day: 125.57 % a year
    expect(chain.volatility).toBe('1.2557')
    expect(chain.expiries.length).toBeGreaterThanOrEqual(2)
    const [soonest] = chain.expiries
    expect(soonest!.expiresAt).toBeGreaterThan(chain.now + 60_000)
    expect(soonest!.expiresAt - chain.now).toBeLessThanOrEqual(16 * 60_000)
    for (const expiry of chain.expiries) {
      expect(expiry.strikes).toHaveLength(9)
      const middle = toDecimal(expiry.strikes[4])
      const step = toDecimal(expiry.strikes[1]).minus(expiry.strikes[0]!)
      expect(middle.minus(chain.spot).abs().lessThanOrEqualTo(step.dividedBy(2))).toBe(true)
    }
    expect(chain.expiries.at(-1)!.expiresAt % (24 * 3600_000)).toBe(0)
    const gold = await trader.ok('optionChain', { query: { coin: 'xau' } })
    expect(gold).toMatchObject({ feeType: 2, feeValue: '0.5' })
  })

  it('buys a call and a put, pays the call its intrinsic value at expiry and the put nothing', async () => {
    const chain = await trader.ok('optionChain', { query: { coin: 'btc' } })
    const expiry = chain.expiries[0]!
    const strike = expiry.strikes[4]!
    const before = await usdt(trader)

    const bought = []
    for (const kind of ['call', 'put'] as const) {
      const limit = premiumNow(chain, kind, strike, expiry.expiresAt).times(LIMIT_ALLOWANCE).toFixed(8)
      const position = await trader.ok('optionOrderSubmit', {
        body: { coin: 'btc', expiresAt: expiry.expiresAt, strike, kind, quantity: '0.02', maxPremium: limit },
      })
      expect(position).toMatchObject({ kind, strike, quantity: '0.02', status: 'open', payout: '0' })
      expect(toDecimal(position.premium).lessThanOrEqualTo(limit)).toBe(true)
      const charged = optionOrderCost('0.02', position.premium, { feeType: 1, feeValue: '1' })
      expect([position.cost, position.fee]).toEqual([charged.cost.toFixed(), charged.fee.toFixed()])
      bought.push({ position, total: charged.total })
    }
    const paid = bought[0]!.total.plus(bought[1]!.total)
    expect((await usdt(trader)).toFixed()).toBe(before.minus(paid).toFixed())
    const open = await trader.ok('optionPositions', { query: { status: 'open' } })
    expect(open.rows.map((row) => row.kind).sort()).toEqual(['call', 'put'])

    // up 4 %: the call ends in the money, the put out of it
    const target = toDecimal(strike).times('1.04').toDecimalPlaces(2)
    await trader.control('/sandbox/price', { symbol: 'btcusdt', price: target.toFixed() })
    const { now } = await trader.control<{ now: number }>('/sandbox/time', {
      advanceMs: expiry.expiresAt - chain.now + 1000,
    })
    expect(now).toBeGreaterThan(expiry.expiresAt)

    const settled = await trader.ok('optionPositions', { query: { status: 'settled' } })
    expect(settled.rows).toHaveLength(2)
    const call = settled.rows.find((row) => row.kind === 'call')!
    const put = settled.rows.find((row) => row.kind === 'put')!
    // the walk may have ticked between the control calls, but not by 4 %
    expect(toDecimal(call.settlePrice).dividedBy(target).minus(1).abs().lessThan('0.01')).toBe(true)
    expect(call.payout).toBe(
      intrinsicValue('call', call.settlePrice, strike).times('0.02').toDecimalPlaces(8, 1).toFixed(),
    )
    expect(toDecimal(call.payout).greaterThan(0)).toBe(true)
    expect(put).toMatchObject({ payout: '0', settlePrice: call.settlePrice })
    expect((await usdt(trader)).toFixed()).toBe(before.minus(paid).plus(call.payout).toFixed())

    // the ledger: two purchases and one payout, each with the balance it left
    const records = (await trader.ok('financialRecords', { query: { kind: 'option' } })).rows
    expect(records.map((row) => row.amount)).toEqual([
      call.payout,
      bought[1]!.total.negated().toFixed(),
      bought[0]!.total.negated().toFixed(),
    ])
    expect(records[0]!.balanceAfter).toBe((await usdt(trader)).toFixed())

    const event = await feed.next(
      (frame) =>
        frame.type === 'SETTLEMENT' &&
        frame.userId === traderId &&
        (frame.data as { id?: number }).id === call.id,
    )
    expect(event.data).toMatchObject({
      product: 'option',
      kind: 'call',
      status: 'settled',
      payout: call.payout,
    })
    // the event the owner is told of rides on the same frame: the option, its size, price and payout
    expect(noticeOf(event.data as Record<string, unknown>)).toMatchObject({
      kind: 'optionSettled',
      symbol: call.symbol,
      side: 'call',
      qty: '0.02',
      price: call.settlePrice,
      coin: 'usdt',
      amount: call.payout,
    })
  })

  it('pays a put that ends in the money', async () => {
    const chain = await trader.ok('optionChain', { query: { coin: 'eth' } })
    const expiry = chain.expiries[0]!
    const strike = expiry.strikes[4]!
    const limit = premiumNow(chain, 'put', strike, expiry.expiresAt).times(LIMIT_ALLOWANCE).toFixed(8)
    const position = await trader.ok('optionOrderSubmit', {
      body: {
        coin: 'eth',
        expiresAt: expiry.expiresAt,
        strike,
        kind: 'put',
        quantity: '0.5',
        maxPremium: limit,
      },
    })
    const target = toDecimal(strike).times('0.9').toDecimalPlaces(2)
    await trader.control('/sandbox/price', { symbol: 'ethusdt', price: target.toFixed() })
    const { now } = await trader.control<{ now: number }>('/sandbox/time', undefined, 'GET')
    await trader.control('/sandbox/time', { advanceMs: expiry.expiresAt - now + 1000 })
    const settled = await eventually(async () =>
      (await trader.ok('optionPositions', { query: { status: 'settled' } })).rows.find(
        (row) => row.id === position.id,
      ),
    )
    expect(toDecimal(settled.payout).toFixed()).toBe(
      intrinsicValue('put', settled.settlePrice, strike).times('0.5').toDecimalPlaces(8, 1).toFixed(),
    )
    expect(toDecimal(settled.payout).greaterThan(toDecimal(strike).times('0.04'))).toBe(true)
  })

  it('buys a call back before expiry at its bid, the premium less the spread, and pays the proceeds', async () => {
    const chain = await trader.ok('optionChain', { query: { coin: 'btc' } })
    const expiry = chain.expiries.at(-1)!
    const strike = expiry.strikes[4]!
    const limit = premiumNow(chain, 'call', strike, expiry.expiresAt).times(LIMIT_ALLOWANCE).toFixed(8)
    const position = await trader.ok('optionOrderSubmit', {
      body: {
        coin: 'btc',
        expiresAt: expiry.expiresAt,
        strike,
        kind: 'call',
        quantity: '0.01',
        maxPremium: limit,
      },
    })
    const before = await usdt(trader)
    const sandboxNow = async () =>
      (await trader.control<{ now: number }>('/sandbox/time', undefined, 'GET')).now

    // a floor above any bid the position could have is refused, and nothing moves
    expect(await trader.refused('optionOrderSell', { body: { id: position.id, minPrice: limit } })).toBe(
      'options.bidBelowLimit',
    )
    expect((await usdt(trader)).toFixed()).toBe(before.toFixed())

    const soldFrom = await sandboxNow()
    const sold = await trader.ok('optionOrderSell', { body: { id: position.id, minPrice: '0' } })
    const soldBy = await sandboxNow()
    // the bid at the spot the sale used, somewhere between the two instants: time only lowers it
    const bidAt = (now: number) =>
      optionBid(premiumNow({ ...chain, spot: sold.settlePrice, now }, 'call', strike, expiry.expiresAt))
    const salePrice = toDecimal(sold.salePrice)
    expect(salePrice.greaterThanOrEqualTo(bidAt(soldBy))).toBe(true)
    expect(salePrice.lessThanOrEqualTo(bidAt(soldFrom))).toBe(true)
    const ask = premiumNow(
      { ...chain, spot: sold.settlePrice, now: soldFrom },
      'call',
      strike,
      expiry.expiresAt,
    )
    expect(salePrice.lessThan(ask.times('0.971'))).toBe(true)

    const paid = optionSaleProceeds('0.01', salePrice, { feeType: 1, feeValue: '1' })
    expect(sold).toMatchObject({ id: position.id, status: 'settled', saleFee: paid.fee.toFixed() })
    expect(sold.payout).toBe(paid.net.toFixed())
    expect((await usdt(trader)).toFixed()).toBe(before.plus(paid.net).toFixed())
    const records = (await trader.ok('financialRecords', { query: { kind: 'option' } })).rows
    expect(records[0]!.amount).toBe(paid.net.toFixed())

    const settled = (await trader.ok('optionPositions', { query: { status: 'settled' } })).rows
    expect(settled.find((row) => row.id === position.id)).toMatchObject({ salePrice: sold.salePrice })
    const open = (await trader.ok('optionPositions', { query: { status: 'open' } })).rows
    expect(open.some((row) => row.id === position.id)).toBe(false)

    // sold once: a second sale, or someone else's, is refused
    expect(await trader.refused('optionOrderSell', { body: { id: position.id, minPrice: '0' } })).toBe(
      'options.positionClosed',
    )
    const stranger = await registeredClient(sandbox)
    expect(await stranger.refused('optionOrderSell', { body: { id: position.id, minPrice: '0' } })).toBe(
      'unknownPosition',
    )
  })

  it('serves the option rules in the language the request names, in English otherwise', async () => {
    const rules = async (language: string) => {
      const response = await fetch(`${sandbox.url}/api/option/rules/list?key=OPTION_RULE`, {
        headers: { language },
      })
      return ((await response.json()) as { data: Array<{ id: number; title: string; content: string }> }).data
    }
    const english = await rules('en')
    expect(english.map((rule) => rule.title)).toEqual([
      'What you buy',
      'Premium and fee',
      'Expiry and settlement',
      'Selling back before expiry',
      'Quantities and balance',
    ])
    // the sell-back rule names the spread the sale is priced at, in every language
    const spread = toDecimal(OPTION_BID_SPREAD).times(100).toFixed()
    for (const language of BUNDLE_LANGUAGES) {
      const translated = await rules(language)
      expect(translated.length, language).toBe(english.length)
      expect(translated[3]!.content, language).toMatch(new RegExp(`(^|\\D)${spread}\\s?%|%${spread}(\\D|$)`))
    }
    expect((await rules('ja'))[0]!.title).toBe('購入するもの')
    expect((await rules('ar'))[2]!.title).toBe('الاستحقاق والتسوية')
    expect((await rules('zh-CN')).map((rule) => rule.id)).toEqual(english.map((rule) => rule.id))
    expect(await rules('xx')).toEqual(english)
  })

  describe('refusals', () => {
    let chain: OptionChain
    let order: {
      coin: string
      expiresAt: number
      strike: string
      kind: OptionKind
      quantity: string
      maxPremium: string
    }

    beforeAll(async () => {
      // its own reader: the outer beforeEach's trader does not exist yet when these run first
      chain = await (await registeredClient(sandbox)).ok('optionChain', { query: { coin: 'btc' } })
      const expiry = chain.expiries[0]!
      order = {
        coin: 'btc',
        expiresAt: expiry.expiresAt,
        strike: expiry.strikes[4]!,
        kind: 'call',
        quantity: '0.01',
        maxPremium: '1000000',
      }
    })

    it.each<[string, Record<string, unknown>, string]>([
      ['an expired series', { expiresAt: 1_000 }, 'options.seriesExpired'],
      ['an expiry that is not listed', { expiresAt: 'soonest+1' }, 'options.seriesUnknown'],
      ['a strike that is not listed', { strike: 'middle+1' }, 'options.seriesUnknown'],
      ['a coin without options', { coin: 'ada' }, 'options.unknownCoin'],
      ['a quantity of zero', { quantity: '0' }, 'amountMustBePositive'],
      ['less than one lot', { quantity: '0.0005' }, 'options.quantityBelowMinimum'],
      ['a part of a lot', { quantity: '0.0015' }, 'options.quantityNotWholeLots'],
      ['more than the maximum', { quantity: '10.001' }, 'options.quantityAboveMaximum'],
      ['a premium moved past the limit', { maxPremium: '0.00000001' }, 'options.premiumAboveLimit'],
    ])('refuses %s and charges nothing', async (_name, change, refusal) => {
      const body: Record<string, unknown> = { ...order, ...change }
      if (change.expiresAt === 'soonest+1') body.expiresAt = order.expiresAt + 1
      if (change.strike === 'middle+1') body.strike = toDecimal(order.strike).plus(1).toFixed()
      const before = await usdt(trader)
      expect(await trader.refused('optionOrderSubmit', { body })).toBe(refusal)
      expect((await usdt(trader)).toFixed()).toBe(before.toFixed())
    })

    it('refuses a buyer whose balance is too small, whole', async () => {
      const poor = await registeredClient(sandbox)
      expect(await poor.refused('optionOrderSubmit', { body: { ...order, quantity: '5' } })).toBe(
        'insufficientBalance',
      )
      expect((await usdt(poor)).toFixed()).toBe('80')
      expect((await poor.ok('optionPositions', { query: {} })).total).toBe(0)
    })

    it('refuses malformed orders and chains before they reach the desk', async () => {
      expect(await trader.refused('optionOrderSubmit', { body: { ...order, kind: 'straddle' } })).toMatch(
        /^invalidParameter/,
      )
      expect(await trader.refused('optionOrderSubmit', { body: { ...order, strike: '-5' } })).toMatch(
        /^invalidParameter/,
      )
      expect(await trader.refused('optionChain', { query: { coin: 'nope' } })).toBe('options.unknownCoin')
      const anonymous = new Client(sandbox.url)
      expect((await anonymous.call('optionOrderSubmit', { body: order })).code).toBe('500')
    })

    it('refuses to move sandbox time backwards or by nothing', async () => {
      await expect(trader.control('/sandbox/time', { advanceMs: -5 })).rejects.toThrow(/400/)
      await expect(trader.control('/sandbox/time', { advanceMs: 0 })).rejects.toThrow(/400/)
    })
  })
})
