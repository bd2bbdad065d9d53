import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Decimal } from 'decimal.js'
import {
  DEPTH_LEVELS,
  contractOpening,
  contractPnl,
  parseUpstreamFrame,
  spotTotals,
  toDecimal,
  type DepthData,
  type DepthLevel,
} from '@tradegate/shared'
import type { Sandbox } from '../app'
import { Client, eventually, holdPrice, openFeed, registeredClient, startTestSandbox } from './helpers'

// The spot order book, the DEPTH feed, spot cancel, partial and limit closes of positions, and the
// order form's preview against the fills it announces. The preview is the shared trade math called
// as web/src/features/trade/lib/order-math.ts calls it (its own test holds it to that).

const ETH = 'ethusdt'
const truncated = (value: Decimal) => value.toDecimalPlaces(8, Decimal.ROUND_DOWN)

/** One DEPTH snapshot of a symbol, as a client of the sandbox feed receives it on subscribing. */
async function depthSnapshot(sandbox: Sandbox, symbol: string): Promise<DepthData> {
  const feed = await openFeed(sandbox, false)
  feed.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol }))
  const frame = await feed.next(
    (candidate) => candidate.type === 'DEPTH' && (candidate.data as DepthData).snapshot,
  )
  await feed.close()
  return frame.data as DepthData
}

async function funded(sandbox: Sandbox, deposits: Record<string, string>): Promise<Client> {
  const client = await registeredClient(sandbox)
  const { userId } = await client.ok('userInfo')
  for (const [coin, amount] of Object.entries(deposits))
    await client.control('/sandbox/deposit', { userId, coin, amount })
  return client
}

async function wallet(client: Client, coin: string, account = 'platform') {
  const row = (await client.ok('assetBalance')).find(
    (entry) => entry.account === account && entry.coin === coin,
  )
  return { available: row?.available ?? '0', frozen: row?.frozen ?? '0' }
}

describe('spot order book (a market that only moves when told)', () => {
  let sandbox: Sandbox
  let control: Client

  beforeAll(async () => {
    // no ticks during the test: the book changes only through orders and set prices
    sandbox = await startTestSandbox({ tickMs: 600_000 })
    control = new Client(sandbox.url)
  })
  afterAll(() => sandbox.close())

  const setPrice = (price: string) => control.control('/sandbox/price', { symbol: ETH, price })

  it('rests a limit order in the book, shows it in the snapshot and takes it out on cancel', async () => {
    await setPrice('3000')
    const client = await funded(sandbox, { usdt: '5000' })
    const before = await wallet(client, 'usdt')
    const book = await depthSnapshot(sandbox, ETH)
    expect(book.bids).toHaveLength(DEPTH_LEVELS)
    expect(book.asks).toHaveLength(DEPTH_LEVELS)
    expect(Number(book.bids[0]![0])).toBeLessThan(3000)
    expect(Number(book.asks[0]![0])).toBeGreaterThan(3000)
    const prices = (levels: DepthLevel[]) => levels.map(([price]) => Number(price))
    expect(prices(book.bids)).toEqual([...prices(book.bids)].sort((a, b) => b - a))
    expect(prices(book.asks)).toEqual([...prices(book.asks)].sort((a, b) => a - b))

    const order = await client.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'buy', type: 'limit', price: '2999.7', amount: '0.2' },
    })
    expect(order).toMatchObject({ status: 'open', price: '2999.7', filledAmount: '0', filledPrice: '' })
    const withOrder = await depthSnapshot(sandbox, ETH)
    expect(withOrder.bids[0]).toEqual(['2999.7', '0.2'])
    expect(withOrder.seq).toBeGreaterThan(book.seq)
    // 0.2 × 2999.7 = 599.94, fee 1.19988: held until it fills or is cancelled
    expect(await wallet(client, 'usdt')).toEqual({
      available: toDecimal(before.available).minus('601.13988').toFixed(),
      frozen: '601.13988',
    })
    expect(
      (await client.ok('spotOrderList', { query: { status: 'open' } })).rows.map((row) => row.id),
    ).toEqual([order.id])

    const cancelled = await client.ok('spotOrderCancel', { query: { id: String(order.id) } })
    expect(cancelled).toMatchObject({ id: order.id, status: 'cancelled', filledAmount: '0' })
    expect(await wallet(client, 'usdt')).toEqual(before)
    expect((await depthSnapshot(sandbox, ETH)).bids[0]![0]).not.toBe('2999.7')
    expect(await client.refused('spotOrderCancel', { query: { id: String(order.id) } })).toBe('orderNotOpen')
    const history = await client.ok('spotOrderList', { query: { status: 'history' } })
    expect(history.rows.map((row) => [row.id, row.status])).toEqual([[order.id, 'cancelled']])
  })

  it('walks the book level by level for a marketable order, at the average price', async () => {
    await setPrice('3000')
    const client = await funded(sandbox, { usdt: '20000' })
    const { asks } = await depthSnapshot(sandbox, ETH)
    const [first, second, third] = asks.map(([price, qty]) => [toDecimal(price), toDecimal(qty)] as const)
    // all of two levels and half of the third (at the coin's 5 places)
    const half = third![1].dividedBy(2).toDecimalPlaces(5, Decimal.ROUND_DOWN)
    const amount = first![1].plus(second![1]).plus(half)
    const value = first![0].times(first![1]).plus(second![0].times(second![1])).plus(third![0].times(half))
    const fee = truncated(value.times('0.002'))
    const before = await wallet(client, 'usdt')

    const order = await client.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'buy', type: 'market', amount: amount.toFixed() },
    })
    expect(order).toMatchObject({
      status: 'filled',
      price: '',
      amount: amount.toFixed(),
      filledAmount: amount.toFixed(),
      filledPrice: truncated(value.dividedBy(amount)).toFixed(),
      fee: fee.toFixed(),
    })
    expect(toDecimal(order.filledPrice).greaterThan(first![0])).toBe(true)
    expect(await wallet(client, 'usdt')).toEqual({
      available: toDecimal(before.available).minus(value).minus(fee).toFixed(),
      frozen: '0',
    })
    expect((await wallet(client, 'eth')).available).toBe(amount.toFixed())
    const after = await depthSnapshot(sandbox, ETH)
    expect(after.asks[0]).toEqual([third![0].toFixed(), third![1].minus(half).toFixed()])

    expect(
      await client.refused('spotOrderSubmit', {
        body: { symbol: ETH, side: 'buy', type: 'market', amount: '300' },
      }),
    ).toBe('notEnoughLiquidity')
  })

  it('fills a resting limit at its own price when the market gaps through it, buy and sell', async () => {
    await setPrice('3000')
    const client = await funded(sandbox, { usdt: '1000', eth: '1' })
    const { available } = await wallet(client, 'usdt')
    const buy = await client.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'buy', type: 'limit', price: '2990', amount: '0.1' },
    })
    const sell = await client.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'sell', type: 'limit', price: '3010', amount: '0.5' },
    })
    await setPrice('2980')
    await setPrice('3025')
    const rows = (await client.ok('spotOrderList', { query: { status: 'filled' } })).rows
    // 0.1 × 2990 = 299, fee 0.598; 0.5 × 3010 = 1505, fee 3.01
    expect(rows.find((row) => row.id === buy.id)).toMatchObject({
      price: '2990',
      filledPrice: '2990',
      filledAmount: '0.1',
      fee: '0.598',
    })
    expect(rows.find((row) => row.id === sell.id)).toMatchObject({
      price: '3010',
      filledPrice: '3010',
      filledAmount: '0.5',
      fee: '3.01',
    })
    expect(await wallet(client, 'usdt')).toEqual({
      available: toDecimal(available).plus('1202.392').toFixed(),
      frozen: '0',
    })
    expect(await wallet(client, 'eth')).toEqual({ available: '0.6', frozen: '0' })
    expect(await client.refused('spotOrderCancel', { query: { id: String(buy.id) } })).toBe('orderNotOpen')
  })

  it("fills part of another user's resting order, which keeps the rest until cancelled", async () => {
    await setPrice('3000')
    const maker = await funded(sandbox, { eth: '1' })
    const taker = await funded(sandbox, { usdt: '2000' })
    const takerUsdt = toDecimal((await wallet(taker, 'usdt')).available)
    const makerUsdt = toDecimal((await wallet(maker, 'usdt')).available)
    const resting = await maker.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'sell', type: 'limit', price: '3000.2', amount: '0.5' },
    })
    expect((await depthSnapshot(sandbox, ETH)).asks[0]).toEqual(['3000.2', '0.5'])
    expect(await taker.refused('spotOrderCancel', { query: { id: String(resting.id) } })).toBe('unknownOrder')

    const bought = await taker.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'buy', type: 'market', amount: '0.2' },
    })
    // 0.2 × 3000.2 = 600.04, each side pays a fee of 1.20008
    expect(bought).toMatchObject({ filledPrice: '3000.2', filledAmount: '0.2', fee: '1.20008' })
    expect(await wallet(taker, 'usdt')).toEqual({
      available: takerUsdt.minus('601.24008').toFixed(),
      frozen: '0',
    })
    const [partial] = (await maker.ok('spotOrderList', { query: { status: 'open' } })).rows
    expect(partial).toMatchObject({
      id: resting.id,
      filledAmount: '0.2',
      filledPrice: '3000.2',
      fee: '1.20008',
    })
    expect(await wallet(maker, 'usdt')).toEqual({
      available: makerUsdt.plus('598.83992').toFixed(),
      frozen: '0',
    })
    expect(await wallet(maker, 'eth')).toEqual({ available: '0.5', frozen: '0.3' })
    expect((await depthSnapshot(sandbox, ETH)).asks[0]).toEqual(['3000.2', '0.3'])

    await maker.ok('spotOrderCancel', { query: { id: String(resting.id) } })
    expect(await wallet(maker, 'eth')).toEqual({ available: '0.8', frozen: '0' })
    expect((await depthSnapshot(sandbox, ETH)).asks[0]![0]).not.toBe('3000.2')
  })

  it('refuses hostile orders and cancels and changes nothing', async () => {
    await setPrice('3000')
    const client = await funded(sandbox, { usdt: '1000' })
    const before = await client.ok('assetBalance')
    const order = (body: Record<string, unknown>) =>
      client.refused('spotOrderSubmit', { body: { symbol: ETH, side: 'buy', type: 'limit', ...body } })
    expect(await order({ price: '2990', amount: '-1' })).toMatch(/^invalidParameter/)
    expect(await order({ price: '-2990', amount: '0.1' })).toMatch(/^invalidParameter/)
    expect(await order({ price: '2990', amount: '0' })).toBe('amountMustBePositive')
    expect(await order({ price: '2990', amount: '0.000001' })).toBe('amountPrecisionExceeded')
    expect(await order({ price: '2990.00001', amount: '0.1' })).toBe('pricePrecisionExceeded')
    expect(await order({ price: '99999999999999999999', amount: '0.1' })).toBe('priceOutOfBand')
    expect(await order({ price: '1', amount: '10' })).toBe('priceOutOfBand')
    expect(await order({ price: '2990', amount: '99999999999999999999' })).toBe('orderAboveMaximum')
    expect(await order({ price: '2990', amount: '2' })).toBe('insufficientBalance')
    expect(await order({ symbol: 'nosuchusdt', price: '1', amount: '1' })).toBe('unknownSymbol')
    expect(await order({ symbol: 'xauusdt', price: '2300', amount: '1' })).toBe('notASpotPair')
    expect(await client.refused('spotOrderCancel', { query: { id: '9999999999999999999' } })).toBe(
      'unknownOrder',
    )
    expect(await client.refused('spotOrderCancel', { query: { id: 'abc' } })).toMatch(/^invalidParameter/)
    expect(await client.refused('spotOrderCancel', { query: { id: '-1' } })).toMatch(/^invalidParameter/)
    expect(await client.ok('assetBalance')).toEqual(before)
  })
})

describe('DEPTH on the sandbox feed', () => {
  let sandbox: Sandbox

  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.close())

  /** Applies updates to a snapshot, as a client keeps its book. */
  function apply(book: Map<string, string>, levels: DepthLevel[]): void {
    for (const [price, qty] of levels) {
      if (qty === '0') book.delete(price)
      else book.set(price, qty)
    }
  }

  it('sends a snapshot on subscribe, then updates with a seq that grows by one, that rebuild the book', async () => {
    const first = await openFeed(sandbox, false)
    first.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' }))
    await eventually(() =>
      first.frames.filter((frame) => frame.type === 'DEPTH').length >= 8 ? true : undefined,
    )
    const second = await openFeed(sandbox, false)
    second.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' }))
    const later = (await second.next((frame) => frame.type === 'DEPTH' && (frame.data as DepthData).snapshot))
      .data as DepthData
    await eventually(() =>
      first.frames.some((frame) => frame.type === 'DEPTH' && (frame.data as DepthData).seq > later.seq)
        ? true
        : undefined,
    )
    const frames = first.frames.filter((frame) => frame.type === 'DEPTH')
    for (const frame of frames) {
      expect(frame.symbol).toBe('btcusdt')
      expect(parseUpstreamFrame(JSON.stringify(frame)).ok).toBe(true)
    }
    const [snapshot, ...updates] = frames.map((frame) => frame.data as DepthData)
    expect(snapshot!.snapshot).toBe(true)
    const bids = new Map(snapshot!.bids)
    const asks = new Map(snapshot!.asks)
    let seq = snapshot!.seq
    for (const update of updates) {
      expect(update.snapshot).toBe(false)
      expect(update.seq).toBe(seq + 1)
      expect(update.bids.length + update.asks.length).toBeGreaterThan(0)
      seq = update.seq
      apply(bids, update.bids)
      apply(asks, update.asks)
      // the book the first socket kept equals the snapshot the second one got at that seq
      if (seq === later.seq) {
        expect(new Map(later.bids)).toEqual(bids)
        expect(new Map(later.asks)).toEqual(asks)
      }
    }
    expect(seq).toBeGreaterThan(later.seq)
    expect(bids.size).toBe(DEPTH_LEVELS)
    await Promise.all([first.close(), second.close()])
  })

  it("shows a user's resting order in the next update and gives a gateway every book on connect", async () => {
    const gateway = await openFeed(sandbox, true)
    const snapshots = await eventually(() => {
      const found = gateway.frames.filter(
        (frame) => frame.type === 'DEPTH' && (frame.data as DepthData).snapshot,
      )
      return found.length >= sandbox.state.market.instruments.length ? found : undefined
    })
    expect(new Set(snapshots.map((frame) => frame.symbol)).size).toBe(sandbox.state.market.instruments.length)

    const client = await funded(sandbox, { usdt: '1000' })
    // a few usdt below the price, off the simulated grid (steps of 0.5), among the top levels
    const price = sandbox.state.market.price('ethusdt').toDecimalPlaces(0).minus('3.3')
    await client.ok('spotOrderSubmit', {
      body: { symbol: 'ethusdt', side: 'buy', type: 'limit', price: price.toFixed(), amount: '0.123' },
    })
    const update = await gateway.next(
      (frame) =>
        frame.type === 'DEPTH' &&
        frame.symbol === 'ethusdt' &&
        (frame.data as DepthData).bids.some(([level]) => level === price.toFixed()),
    )
    expect((update.data as DepthData).bids).toContainEqual([price.toFixed(), '0.123'])
    await gateway.close()
  })

  it('greets a gateway that connects while the feed is paused with every book when it resumes', async () => {
    const control = new Client(sandbox.url)
    await control.control('/sandbox/feed/pause')
    const gateway = await openFeed(sandbox, true)
    // a greeting would go out on connecting, before the answer to a bad frame sent after it
    gateway.socket.send('not json')
    await gateway.next((frame) => frame.type === 'error')
    expect(gateway.frames).toEqual([expect.objectContaining({ type: 'error', msg: 'invalidJson' })])
    await control.control('/sandbox/feed/resume')
    await gateway.next((frame) => frame.type === 'DETAIL')
    const depth = gateway.frames.filter((frame) => frame.type === 'DEPTH')
    const count = sandbox.state.market.instruments.length
    // the snapshot of every book comes before any update
    expect(depth.slice(0, count).every((frame) => (frame.data as DepthData).snapshot)).toBe(true)
    expect(new Set(depth.slice(0, count).map((frame) => frame.symbol)).size).toBe(count)

    // a gateway that missed an update asks again by subscribing, and gets the book afresh
    const seen = gateway.frames.length
    gateway.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: 'xrpusdt' }))
    const again = await gateway.next(
      (frame) =>
        gateway.frames.indexOf(frame) >= seen &&
        frame.type === 'DEPTH' &&
        frame.symbol === 'xrpusdt' &&
        (frame.data as DepthData).snapshot,
    )
    expect((again.data as DepthData).bids).toHaveLength(DEPTH_LEVELS)
    await gateway.close()
  })

  it('skips no seq while the feed is paused', async () => {
    const control = new Client(sandbox.url)
    const feed = await openFeed(sandbox, false)
    feed.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: 'solusdt' }))
    await feed.next(
      (frame) =>
        frame.type === 'DEPTH' && (frame.data as DepthData).seq > 0 && !(frame.data as DepthData).snapshot,
    )
    await control.control('/sandbox/feed/pause')
    const pausedAt = feed.frames.length
    // the book changes while the feed is paused: its price has moved at least once
    const pausedPrice = sandbox.state.market.price('solusdt')
    await eventually(
      () => (sandbox.state.market.price('solusdt').equals(pausedPrice) ? undefined : true),
      20_000,
    )
    await control.control('/sandbox/feed/resume')
    await eventually(() => (feed.frames.length > pausedAt + 3 ? true : undefined))
    const seqs = feed.frames
      .filter((frame) => frame.type === 'DEPTH')
      .map((frame) => (frame.data as DepthData).seq)
    expect(seqs).toEqual(seqs.map((_, index) => seqs[0]! + index))
    await feed.close()
  })
})

describe('positions: partial close and close at a limit', () => {
  let sandbox: Sandbox
  let control: Client

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tickMs: 600_000 })
    control = new Client(sandbox.url)
  })
  afterAll(() => sandbox.close())

  const setPrice = (price: string) => control.control('/sandbox/price', { symbol: ETH, price })

  async function trader() {
    const client = await funded(sandbox, { usdt: '1000' })
    await client.ok('transferFunds', {
      body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '500' },
    })
    return client
  }

  it('sets a take-profit and stop-loss with the order, judged against its price, watching the mark price', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const order = { symbol: ETH, direction: 'long', type: 'market', leverage: 10, shares: '5' } as const
    // a long's take-profit under the price it opens at, or its stop-loss over it, is refused
    expect(
      await client.refused('contractOrderSubmit', {
        body: { ...order, takeProfit: '2900', triggerBy: 'mark' },
      }),
    ).toBe('takeProfitMustBeAbovePrice')
    expect(await client.refused('contractOrderSubmit', { body: { ...order, stopLoss: '3100' } })).toBe(
      'stopLossMustBeBelowPrice',
    )
    // a short limit is judged against its limit, not the market
    expect(
      await client.refused('contractOrderSubmit', {
        body: {
          ...order,
          direction: 'short',
          type: 'limit',
          price: '3300',
          takeProfit: '3200',
          stopLoss: '3250',
        },
      }),
    ).toBe('stopLossMustBeAbovePrice')
    expect(await client.ok('positionList', { query: { status: 'open' } })).toMatchObject({ rows: [] })

    await client.ok('contractOrderSubmit', {
      body: { ...order, takeProfit: '3150', stopLoss: '2850', triggerBy: 'mark' },
    })
    const [position] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    expect(await client.ok('lossList')).toEqual([
      expect.objectContaining({
        positionId: position!.id,
        takeProfit: '3150',
        stopLoss: '2850',
        status: 'active',
        triggerBy: 'mark',
      }),
    ])
    // one print over the take-profit moves neither the index (a median of the last prices) nor the mark
    await setPrice('3160')
    expect((await client.ok('positionList', { query: { status: 'open' } })).rows).toHaveLength(1)
    // the market stays there: the mark reaches the take-profit, the position closes at the market
    await holdPrice(control, ETH, '3160')
    const [closed] = (await client.ok('positionList', { query: { status: 'closed' } })).rows
    expect(closed).toMatchObject({ id: position!.id, status: 'closed', closePrice: '3160' })
    expect((await client.ok('lossList'))[0]).toMatchObject({ status: 'triggered' })
  })

  it('closes some shares at the market, then some at a limit the market reaches, then the rest', async () => {
    await setPrice('3000')
    const client = await trader()
    await client.ok('contractOrderSubmit', {
      body: { symbol: ETH, direction: 'long', type: 'market', leverage: 10, shares: '10' },
    })
    const [position] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    const id = String(position!.id)
    // value 100, margin 10, open fee 0.1
    expect(await wallet(client, 'usdt', 'contract')).toEqual({ available: '489.9', frozen: '10' })

    await setPrice('3030')
    const part = await client.ok('positionStop', { query: { id, shares: '3' } })
    // 3 shares: value 30, margin 3, PnL 30 × 30 / 3000 = 0.3, close fee 0.03, 3.27 back
    expect(part).toMatchObject({ status: 'closed', shares: '3', margin: '3', pnl: '0.3', closePrice: '3030' })
    expect(part.id).not.toBe(position!.id)
    expect((await client.ok('positionList', { query: { status: 'open' } })).rows[0]).toMatchObject({
      id: position!.id,
      shares: '7',
      margin: '7',
    })
    expect(await wallet(client, 'usdt', 'contract')).toEqual({ available: '493.17', frozen: '7' })

    const resting = await client.ok('positionStop', { query: { id, shares: '2', price: '3100' } })
    expect(resting).toMatchObject({ id: position!.id, status: 'open', shares: '7' })
    const [closeOrder] = await client.ok('contractOrderList', { query: { status: 'open' } })
    expect(closeOrder).toMatchObject({ positionId: position!.id, price: '3100', shares: '2', type: 'limit' })
    // the two shares are spoken for
    expect(await client.refused('positionStop', { query: { id, shares: '6' } })).toBe('sharesAboveOpen')

    await setPrice('3150')
    const closed = (await client.ok('positionList', { query: { status: 'closed' } })).rows
    // at the limit, not the gapped price: PnL 20 × 100 / 3000 = 0.66666666, fee 0.02, 2.64666666 back
    expect(closed[0]).toMatchObject({ shares: '2', closePrice: '3100', pnl: '0.66666666' })
    expect(await wallet(client, 'usdt', 'contract')).toEqual({ available: '495.81666666', frozen: '5' })
    // the close order filled whole at its limit; the opening market order at the market of the moment
    const filledOrders = await client.ok('contractOrderList', { query: { status: 'filled' } })
    // each with the fee it paid: the close fee of 0.02 on the close, the open fee of 0.1 on the opening
    expect(filledOrders.find((row) => row.id === closeOrder!.id)).toMatchObject({
      price: '3100',
      filledShares: '2',
      filledPrice: '3100',
      fee: '0.02',
    })
    expect(filledOrders.find((row) => row.positionId === undefined)).toMatchObject({
      type: 'market',
      filledShares: '10',
      filledPrice: '3000',
      fee: '0.1',
    })
    // a fee only held, or not known yet, is not shown as paid
    expect(closeOrder!.fee).toBeUndefined()

    // a close order still resting is cancelled when the whole position closes
    await client.ok('positionStop', { query: { id, shares: '1', price: '3400' } })
    const last = await client.ok('positionStop', { query: { id } })
    expect(last).toMatchObject({ id: position!.id, status: 'closed', shares: '5' })
    expect((await client.ok('contractOrderList', { query: { status: 'open' } })).length).toBe(0)
    expect(await wallet(client, 'usdt', 'contract')).toMatchObject({ frozen: '0' })
    const history = (await client.ok('positionList', { query: { status: 'history' } })).rows
    expect(history).toHaveLength(3)
    // each closed part records its entry, exit, fees both ways and when it closed: the position
    // history a trader reads, the open fee of 0.1 shared out by shares; the parts split off come first
    expect(
      history.map(({ shares, openPrice, closePrice, pnl, openFee, closeFee }) => ({
        shares,
        openPrice,
        closePrice,
        pnl,
        openFee,
        closeFee,
      })),
    ).toEqual([
      {
        shares: '2',
        openPrice: '3000',
        closePrice: '3100',
        pnl: '0.66666666',
        openFee: '0.02',
        closeFee: '0.02',
      },
      { shares: '3', openPrice: '3000', closePrice: '3030', pnl: '0.3', openFee: '0.03', closeFee: '0.03' },
      { shares: '5', openPrice: '3000', closePrice: '3150', pnl: '2.5', openFee: '0.05', closeFee: '0.05' },
    ])
    for (const row of history) expect(row.closedAt).toBeGreaterThanOrEqual(row.createdAt)
  })

  it('closes at once, at the market, when the limit is already reached; a resting close can be cancelled', async () => {
    await setPrice('3000')
    const client = await trader()
    await client.ok('contractOrderSubmit', {
      body: { symbol: ETH, direction: 'short', type: 'market', leverage: 20, shares: '4' },
    })
    const [position] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    const id = String(position!.id)
    const now = await client.ok('positionStop', { query: { id, shares: '1', price: '3100' } })
    expect(now).toMatchObject({ status: 'closed', shares: '1', closePrice: '3000' })
    const resting = await client.ok('positionStop', { query: { id, price: '2900' } })
    expect(resting).toMatchObject({ status: 'open', shares: '3' })
    const [order] = await client.ok('contractOrderList', { query: { status: 'open' } })
    expect(order).toMatchObject({ shares: '3', positionId: position!.id })
    const before = await wallet(client, 'usdt', 'contract')
    await client.ok('contractOrderCancel', { query: { id: String(order!.id) } })
    expect(await wallet(client, 'usdt', 'contract')).toEqual(before)
    expect(await client.ok('positionStop', { query: { id, shares: '3' } })).toMatchObject({
      status: 'closed',
    })
  })

  it('refuses bad shares and prices and changes nothing', async () => {
    await setPrice('3000')
    const client = await trader()
    const other = await trader()
    await client.ok('contractOrderSubmit', {
      body: { symbol: ETH, direction: 'long', type: 'market', leverage: 5, shares: '5' },
    })
    const [position] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    const id = String(position!.id)
    const before = await client.ok('assetBalance')
    const stop = (query: Record<string, string>) =>
      client.refused('positionStop', { query: { id, ...query } })
    expect(await stop({ shares: '0' })).toBe('sharesMustBePositive')
    expect(await stop({ shares: '1.5' })).toBe('sharesMustBeWhole')
    expect(await stop({ shares: '6' })).toBe('sharesAboveOpen')
    expect(await stop({ shares: '99999999999999999999' })).toBe('sharesAboveOpen')
    expect(await stop({ shares: '-1' })).toMatch(/^invalidParameter/)
    expect(await stop({ shares: '1', price: '0' })).toBe('priceMustBePositive')
    expect(await stop({ shares: '1', price: '3000.00001' })).toBe('pricePrecisionExceeded')
    expect(await stop({ shares: '1', price: '99999999' })).toBe('priceOutOfBand')
    expect(await stop({ shares: '1', price: 'abc' })).toMatch(/^invalidParameter/)
    expect(await client.refused('positionStop', { query: { id: '999999' } })).toBe('unknownPosition')
    expect(await other.refused('positionStop', { query: { id } })).toBe('unknownPosition')
    expect(
      await client.refused('positionAdjustMargin', { query: { id, money: '0.000000001', flag: '1' } }),
    ).toBe('amountPrecisionExceeded')
    expect(await client.ok('assetBalance')).toEqual(before)
    expect(await client.ok('contractOrderList', { query: { status: 'open' } })).toEqual([])
  })
})

describe('the order form preview equals the fill', () => {
  let sandbox: Sandbox
  let control: Client

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tickMs: 600_000 })
    control = new Client(sandbox.url)
  })
  afterAll(() => sandbox.close())

  it('for a contract limit order: margin, fees, liquidation price and PnL', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await funded(sandbox, { usdt: '1000' })
    await client.ok('transferFunds', {
      body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '500' },
    })
    const pair = (await client.ok('getCoinList')).contractList.find((row) => row.symbol === ETH)!
    // as the form previews it (contractPreview): 7 shares, 20×, short at the limit
    const preview = contractOpening('7', 20, '3012.37', 'short', pair)

    const order = await client.ok('contractOrderSubmit', {
      body: { symbol: ETH, direction: 'short', type: 'limit', price: '3012.37', leverage: 20, shares: '7' },
    })
    expect(order.margin).toBe(preview.margin.toFixed())
    expect(order).toMatchObject({ status: 'open', filledShares: '0', filledPrice: '' })
    expect(await wallet(client, 'usdt', 'contract')).toEqual({
      available: toDecimal(500).minus(preview.cost).toFixed(),
      frozen: preview.cost.toFixed(),
    })
    // the market gaps through the limit and stays; the position opens at the limit the preview used
    await holdPrice(control, ETH, '3050')
    const [position] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    const [filledOrder] = await client.ok('contractOrderList', { query: { status: 'filled' } })
    expect(filledOrder).toMatchObject({
      id: order.id,
      price: '3012.37',
      filledShares: '7',
      filledPrice: '3012.37',
    })
    expect(position).toMatchObject({
      openPrice: '3012.37',
      margin: preview.margin.toFixed(),
      liquidationPrice: preview.liquidationPrice.toFixed(),
    })
    expect(await wallet(client, 'usdt', 'contract')).toEqual({
      available: toDecimal(500).minus(preview.cost).toFixed(),
      frozen: preview.margin.toFixed(),
    })
    // as the position card follows it (livePnl), at the mark the market stayed at
    expect(position!.markPrice).toBe('3050')
    const live = contractPnl(
      'short',
      toDecimal(position!.shares).times(pair.shareNumber),
      position!.openPrice,
      '3050',
    )
    expect(position!.pnl).toBe(live.toFixed())
    // 70 × 37.63 / 3012.37 = 0.87442777613…, truncated
    expect(position!.pnl).toBe('-0.87442777')
  })

  it('for a spot limit buy: total and fee', async () => {
    await control.control('/sandbox/price', { symbol: ETH, price: '3000' })
    const client = await funded(sandbox, { usdt: '1000' })
    const pair = (await client.ok('getCoinList')).currencyList.find((row) => row.symbol === ETH)!
    const { available } = await wallet(client, 'usdt')
    // as the form previews it (spotEstimate)
    const preview = spotTotals('0.123', '2990.55', pair.feeRate)
    const order = await client.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'buy', type: 'limit', price: '2990.55', amount: '0.123' },
    })
    await control.control('/sandbox/price', { symbol: ETH, price: '2950' })
    const [filled] = (await client.ok('spotOrderList', { query: { status: 'filled' } })).rows
    expect(filled).toMatchObject({ id: order.id, filledPrice: '2990.55', fee: preview.fee.toFixed() })
    expect(await wallet(client, 'usdt')).toEqual({
      available: toDecimal(available).minus(preview.cost).toFixed(),
      frozen: '0',
    })
  })
})
