import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractPnl, fundingPayment, mergedEntryPrice, toDecimal, type DetailData } from '@tradegate/shared'
import type { Sandbox } from '../app'
import { Client, fundedClient, holdPrice, openFeed, startTestSandbox } from './helpers'

// The futures model: one position per pair and side that fills join at their average entry, a mark
// price that one print cannot move driving PnL and liquidation, funding, stop, post-only, IOC, FOK and
// reduce-only orders, and amending an order. The market moves only when a test sets a price.

const ETH = 'ethusdt'

describe('futures desk (a market that only moves when told)', () => {
  let sandbox: Sandbox
  let control: Client

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tickMs: 600_000 })
    control = new Client(sandbox.url)
  })
  afterAll(() => sandbox.close())

  const setPrice = (price: string) => control.control('/sandbox/price', { symbol: ETH, price })

  async function trader(usdt = '500') {
    const client = await fundedClient(sandbox, { usdt })
    await client.ok('transferFunds', {
      body: { coin: 'usdt', from: 'platform', to: 'contract', amount: usdt },
    })
    return client
  }
  async function contractWallet(client: Client) {
    const row = (await client.ok('assetBalance')).find(
      (entry) => entry.account === 'contract' && entry.coin === 'usdt',
    )
    return { available: row!.available, frozen: row!.frozen }
  }
  const openPositions = async (client: Client) =>
    (await client.ok('positionList', { query: { status: 'open' } })).rows
  const order = (extra: Record<string, unknown>) => ({
    body: { symbol: ETH, direction: 'long', type: 'market', leverage: 10, shares: '5', ...extra },
  })

  it('merges two fills of one side into one position at their average entry', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    await client.ok('contractOrderSubmit', order({}))
    await client.ok('contractOrderSubmit', order({ type: 'limit', price: '2900', shares: '10' }))
    await holdPrice(control, ETH, '2900')
    const rows = await openPositions(client)
    // 50 usdt at 3000 and 100 at 2900: one long of 15 shares, margin 5 + 10, fees 0.05 + 0.1
    const entry = mergedEntryPrice('50', '3000', '100', '2900')
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ shares: '15', openPrice: entry.toFixed(), margin: '15', openFee: '0.15' })
    expect(rows[0]!.pnl).toBe(contractPnl('long', '150', entry, rows[0]!.markPrice).toFixed())
    // a short of the same pair is a position of its own; a fill at another leverage is refused
    await client.ok('contractOrderSubmit', order({ direction: 'short' }))
    expect(await openPositions(client)).toHaveLength(2)
    expect(await client.refused('contractOrderSubmit', order({ leverage: 20 }))).toBe(
      'leverageDiffersFromPosition',
    )
    // any whole leverage up to the pair's highest: 100× on eth, 50× on a thinner pair
    expect(await client.ok('contractMarkInfo', { query: { symbol: 'solusdt' } })).toMatchObject({
      maxLeverage: 50,
    })
    const sol = { symbol: 'solusdt', direction: 'long', type: 'market', shares: '1' }
    expect(await client.refused('contractOrderSubmit', { body: { ...sol, leverage: 51 } })).toBe(
      'leverageNotAllowed',
    )
    expect(await client.ok('contractOrderSubmit', { body: { ...sol, leverage: 37 } })).toMatchObject({
      leverage: 37,
    })
  })

  it('judges PnL and liquidation by the mark: one wick liquidates nothing, a market that stays there does', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    await client.ok('contractOrderSubmit', order({ leverage: 100 }))
    const [position] = await openPositions(client)
    const feed = await openFeed(sandbox, false)
    feed.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: ETH }))

    // one print 5 % under: the last price shows it, the index and the mark do not, the long stays
    await setPrice('2850')
    const info = await client.ok('contractMarkInfo', { query: { symbol: ETH } })
    expect(info).toMatchObject({ lastPrice: '2850', indexPrice: '3000', markPrice: '3000' })
    const detail = await feed.next(
      (frame) => frame.type === 'DETAIL' && (frame.data as DetailData).close === '2850',
    )
    expect(detail.data).toMatchObject({
      markPrice: '3000',
      indexPrice: '3000',
      fundingRate: info.fundingRate,
    })
    expect((await openPositions(client))[0]).toMatchObject({ id: position!.id, markPrice: '3000' })
    await setPrice('3000')
    expect(await openPositions(client)).toHaveLength(1)

    // the market stays 2 % under: the mark follows and the 100x long is liquidated at the mark
    let ticks = 0
    while ((await openPositions(client)).length > 0 && ticks++ < 100) await setPrice('2940')
    const [liquidated] = (await client.ok('positionList', { query: { status: 'liquidated' } })).rows
    expect(liquidated).toMatchObject({ id: position!.id, pnl: '-0.5' })
    expect(toDecimal(liquidated!.closePrice).lessThanOrEqualTo(liquidated!.liquidationPrice)).toBe(true)
    expect(toDecimal(liquidated!.closePrice).greaterThan('2940')).toBe(true)
    await feed.close()
  })

  it('charges funding at the funding time out of the margin: longs pay shorts while the rate is positive', async () => {
    await holdPrice(control, ETH, '3000')
    const long = await trader()
    const short = await trader()
    await long.ok('contractOrderSubmit', order({ shares: '100' }))
    await short.ok('contractOrderSubmit', order({ direction: 'short', shares: '100' }))
    const info = await long.ok('contractMarkInfo', { query: { symbol: ETH } })
    expect(info.nextFundingTime % info.fundingIntervalMs).toBe(0)
    expect(toDecimal(info.fundingRate).greaterThan(0)).toBe(true)
    const [before] = await openPositions(long)
    const { now } = await control.control<{ now: number }>('/sandbox/time', undefined, 'GET')
    await control.control('/sandbox/time', { advanceMs: info.nextFundingTime - now })

    const due = fundingPayment('long', '1000', before!.openPrice, info.markPrice, info.fundingRate)
    expect(due.isNegative()).toBe(true)
    const [after] = await openPositions(long)
    expect(after).toMatchObject({
      margin: toDecimal(before!.margin).plus(due).toFixed(),
      funding: due.toFixed(),
    })
    expect((await contractWallet(long)).frozen).toBe(after!.margin)
    expect((await openPositions(short))[0]).toMatchObject({ funding: due.negated().toFixed() })
    // and each side is told, with the mark it was reckoned at and what it paid or got
    const [told] = await long.ok('userNotices')
    expect(told).toMatchObject({
      kind: 'funding',
      symbol: ETH,
      side: 'long',
      qty: '100',
      price: info.markPrice,
      amount: due.toFixed(),
    })
    const next = await long.ok('contractMarkInfo', { query: { symbol: ETH } })
    expect(next.nextFundingTime).toBe(info.nextFundingTime + info.fundingIntervalMs)
  })

  it('refuses a post-only limit that would fill at once, and rests one that would not', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    expect(
      await client.refused('contractOrderSubmit', order({ type: 'limit', price: '3010', postOnly: true })),
    ).toBe('postOnlyWouldCross')
    expect(await client.refused('contractOrderSubmit', order({ postOnly: true }))).toBe(
      'orderOptionNotForType',
    )
    const resting = await client.ok(
      'contractOrderSubmit',
      order({ type: 'limit', price: '2990', postOnly: true }),
    )
    expect(resting).toMatchObject({ status: 'open', postOnly: true, timeInForce: 'GTC' })
    // moved across the market, it would fill at once: refused, the order stays as it was
    expect(await client.refused('contractOrderAmend', { body: { id: resting.id, price: '3005' } })).toBe(
      'postOnlyWouldCross',
    )
    expect((await client.ok('contractOrderList', { query: { status: 'open' } }))[0]).toMatchObject({
      price: '2990',
    })
  })

  it('fills IOC from the book and drops the rest; fills FOK whole or not at all', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader('20000')
    const big = { type: 'limit', price: '3003', shares: '100000', leverage: 100 }
    // far more than the book holds within 0.1 %: IOC takes what there is, FOK nothing
    const fok = await client.ok('contractOrderSubmit', order({ ...big, timeInForce: 'FOK' }))
    expect(fok).toMatchObject({ status: 'cancelled', filledShares: '0' })
    expect(await contractWallet(client)).toEqual({ available: '20000', frozen: '0' })
    const ioc = await client.ok('contractOrderSubmit', order({ ...big, timeInForce: 'IOC' }))
    expect(ioc.status).toBe('cancelled')
    const filled = toDecimal(ioc.filledShares!)
    expect(filled.greaterThan(0) && filled.lessThan(100000)).toBe(true)
    const [position] = await openPositions(client)
    expect(position).toMatchObject({ shares: filled.toFixed(), openPrice: ioc.filledPrice })
    expect(toDecimal(ioc.filledPrice!).lessThanOrEqualTo('3003')).toBe(true)
    // nothing of either rests, and only the filled shares' margin is held
    expect(await client.ok('contractOrderList', { query: { status: 'open' } })).toEqual([])
    expect((await contractWallet(client)).frozen).toBe(position!.margin)
    // a limit under the market: IOC fills nothing and leaves nothing
    const none = await client.ok(
      'contractOrderSubmit',
      order({ type: 'limit', price: '2900', timeInForce: 'IOC', leverage: 100 }),
    )
    expect(none).toMatchObject({ status: 'cancelled', filledShares: '0' })
    const small = await client.ok(
      'contractOrderSubmit',
      order({ type: 'limit', price: '3030', timeInForce: 'FOK', leverage: 100 }),
    )
    expect(small).toMatchObject({ status: 'filled', filledShares: '5' })
  })

  it('reduce-only closes the position on its side and never opens or grows one', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    expect(await client.refused('contractOrderSubmit', order({ reduceOnly: true }))).toBe(
      'reduceOnlyNoPosition',
    )
    await client.ok('contractOrderSubmit', order({ shares: '10' }))
    expect(await client.refused('contractOrderSubmit', order({ reduceOnly: true, shares: '11' }))).toBe(
      'sharesAboveOpen',
    )
    const resting = await client.ok(
      'contractOrderSubmit',
      order({ type: 'limit', price: '3100', reduceOnly: true, shares: '4' }),
    )
    expect(resting).toMatchObject({ status: 'open', reduceOnly: true })
    // the four shares are spoken for
    expect(await client.refused('contractOrderSubmit', order({ reduceOnly: true, shares: '7' }))).toBe(
      'sharesAboveOpen',
    )
    const closing = await client.ok('contractOrderSubmit', order({ reduceOnly: true, shares: '6' }))
    expect(closing).toMatchObject({ status: 'filled', filledShares: '6' })
    expect(await openPositions(client)).toMatchObject([{ shares: '4' }])
    await setPrice('3100')
    expect(await openPositions(client)).toEqual([])
    expect(
      (await client.ok('positionList', { query: { status: 'closed' } })).rows.map((row) => row.closePrice),
    ).toContain('3100')
  })

  it('triggers a stop-market on the last price, and a mark-watching stop only once the mark gets there', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    expect(await client.refused('contractOrderSubmit', order({ type: 'stopMarket' }))).toBe(
      'triggerPriceRequired',
    )
    const onLast = await client.ok('contractOrderSubmit', order({ type: 'stopMarket', triggerPrice: '3050' }))
    const onMark = await client.ok(
      'contractOrderSubmit',
      order({ direction: 'short', type: 'stopMarket', triggerPrice: '3040', triggerBy: 'mark' }),
    )
    expect(onLast).toMatchObject({ status: 'open', triggerPrice: '3050', triggerBy: 'last' })
    expect(await openPositions(client)).toEqual([])
    // one print at 3060: the last-price stop goes to the market there; the mark has not moved
    await setPrice('3060')
    const [long] = await openPositions(client)
    expect(long).toMatchObject({ direction: 'long', openPrice: '3060', shares: '5' })
    const orders = await client.ok('contractOrderList')
    expect(orders.find((row) => row.id === onLast.id)).toMatchObject({
      status: 'filled',
      filledPrice: '3060',
    })
    expect(orders.find((row) => row.id === onMark.id)).toMatchObject({ status: 'open' })
    await holdPrice(control, ETH, '3060')
    expect((await openPositions(client)).map((row) => row.direction).sort()).toEqual(['long', 'short'])
    expect((await client.ok('contractOrderList')).find((row) => row.id === onMark.id)).toMatchObject({
      status: 'filled',
      triggeredAt: expect.any(Number),
    })
  })

  it('a stop-limit rests at its limit once triggered and fills when the market reaches the limit', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const stop = await client.ok(
      'contractOrderSubmit',
      order({ direction: 'short', type: 'stopLimit', triggerPrice: '2950', price: '2960' }),
    )
    // the trigger is amended while it waits; a price it has not got is refused, as is nothing
    expect(
      await client.ok('contractOrderAmend', { body: { id: stop.id, triggerPrice: '2940' } }),
    ).toMatchObject({
      triggerPrice: '2940',
    })
    expect(await client.refused('contractOrderAmend', { body: { id: stop.id } })).toBe('nothingToAmend')
    await setPrice('2945')
    expect((await client.ok('contractOrderList', { query: { status: 'open' } }))[0]).not.toHaveProperty(
      'triggeredAt',
    )
    await setPrice('2930')
    const [triggered] = await client.ok('contractOrderList', { query: { status: 'open' } })
    expect(triggered).toMatchObject({ id: stop.id, triggeredAt: expect.any(Number) })
    expect(await client.refused('contractOrderAmend', { body: { id: stop.id, triggerPrice: '2900' } })).toBe(
      'orderOptionNotForType',
    )
    expect(await openPositions(client)).toEqual([])
    await setPrice('2965')
    expect(await openPositions(client)).toMatchObject([{ direction: 'short', openPrice: '2960' }])
  })

  it('amends a resting limit: more shares hold more margin, and a limit moved across the market fills', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const resting = await client.ok('contractOrderSubmit', order({ type: 'limit', price: '2900' }))
    expect(await contractWallet(client)).toEqual({ available: '494.95', frozen: '5.05' })
    const amended = await client.ok('contractOrderAmend', { body: { id: resting.id, shares: '20' } })
    expect(amended).toMatchObject({
      id: resting.id,
      shares: '20',
      margin: '20',
      createdAt: resting.createdAt,
    })
    expect(await contractWallet(client)).toEqual({ available: '479.8', frozen: '20.2' })
    const moved = await client.ok('contractOrderAmend', { body: { id: resting.id, price: '3010' } })
    expect(moved).toMatchObject({ status: 'filled', filledShares: '20', filledPrice: '3000' })
    expect(await openPositions(client)).toMatchObject([{ shares: '20', openPrice: '3000' }])
    expect(await client.refused('contractOrderAmend', { body: { id: resting.id, price: '2990' } })).toBe(
      'orderNotOpen',
    )
  })
})
