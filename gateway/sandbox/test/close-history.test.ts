import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractPnl, mul, toDecimal, tradeFee, type ContractOrder, type Position } from '@tradegate/shared'
import type { Sandbox } from '../app'
import { Client, fundedClient, holdPrice, startTestSandbox } from './helpers'

// Every close of a futures position leaves one filled order in the order history saying why it
// closed, with its fill price, shares, fee and the PnL it booked, at the time of the close: a close
// the user asked for (at the market or by a close order), a take-profit and a stop-loss reached by a
// price move, and a liquidation at the mark. The market moves only when a test sets a price.

const ETH = 'ethusdt'

describe('a futures close in the order history', () => {
  let sandbox: Sandbox
  let control: Client
  let shareNumber = ''
  let closeRate = ''

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tickMs: 600_000 })
    control = new Client(sandbox.url)
    const pair = (await control.ok('getCoinList')).contractList.find((row) => row.symbol === ETH)!
    shareNumber = String(pair.shareNumber)
    closeRate = pair.closeFee
  })
  afterAll(() => sandbox.close())

  const setPrice = (price: string) => control.control('/sandbox/price', { symbol: ETH, price })

  async function trader() {
    const client = await fundedClient(sandbox, { usdt: '500' })
    await client.ok('transferFunds', {
      body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '500' },
    })
    return client
  }

  /** Opens a position at the market and returns it. */
  async function open(client: Client, extra: Record<string, unknown>): Promise<Position> {
    await client.ok('contractOrderSubmit', {
      body: { symbol: ETH, direction: 'long', type: 'market', leverage: 10, shares: '10', ...extra },
    })
    const { rows } = await client.ok('positionList', { query: { status: 'open' } })
    return rows[0]!
  }

  /** The filled orders that closed shares of a position, newest first. */
  async function closesOf(client: Client, position: Position): Promise<ContractOrder[]> {
    const orders = await client.ok('contractOrderList', { query: { status: 'filled' } })
    return orders.filter((row) => row.positionId === position.id)
  }

  /** The closed rows of the position history: what the close booked, to set the order beside. */
  async function closedParts(client: Client): Promise<Position[]> {
    return (await client.ok('positionList', { query: { status: 'history' } })).rows
  }

  /** What a close of `shares` at `exit` books and pays, by the shared contract math. */
  function expected(position: Position, shares: string, exit: string) {
    const value = mul(shares, shareNumber)
    return {
      pnl: contractPnl(position.direction, value, position.openPrice, exit).toFixed(),
      fee: tradeFee(value, closeRate).toFixed(),
    }
  }

  it('a close the user asks for: at the market, and by a close order a price move fills', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const position = await open(client, {})
    await setPrice('3030')
    await client.ok('positionStop', { query: { id: String(position.id), shares: '4' } })
    const resting = await client.ok('positionStop', { query: { id: String(position.id), price: '3100' } })
    expect(resting).toMatchObject({ status: 'open', shares: '6' })
    await setPrice('3120')

    const [byOrder, atMarket] = await closesOf(client, position)
    const parts = await closedParts(client)
    const firstPart = parts.find((part) => part.shares === '4')!
    const lastPart = parts.find((part) => part.shares === '6')!
    expect(atMarket).toMatchObject({
      type: 'market',
      direction: 'long',
      closeReason: 'manual',
      shares: '4',
      filledShares: '4',
      filledPrice: '3030',
      createdAt: firstPart.closedAt,
      ...expected(position, '4', '3030'),
    })
    // the resting close filled at its own limit, however far the market went past it
    expect(byOrder).toMatchObject({
      type: 'limit',
      closeReason: 'manual',
      price: '3100',
      filledShares: '6',
      filledPrice: '3100',
      ...expected(position, '6', '3100'),
    })
    // each order row says what the position history says of the same close
    expect([byOrder!, atMarket!].map(({ pnl, fee }) => ({ pnl, fee }))).toEqual(
      [lastPart, firstPart].map(({ pnl, closeFee }) => ({ pnl, fee: closeFee })),
    )
  })

  it('a take-profit reached by a price move: a filled stop-market at its trigger, with the profit', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const position = await open(client, { takeProfit: '3100' })
    await setPrice('3090')
    expect(await closesOf(client, position)).toEqual([])
    await setPrice('3105')

    const closes = await closesOf(client, position)
    const [part] = await closedParts(client)
    expect(closes).toHaveLength(1)
    expect(closes[0]).toMatchObject({
      type: 'stopMarket',
      status: 'filled',
      closeReason: 'takeProfit',
      triggerPrice: '3100',
      triggerBy: 'last',
      triggeredAt: part!.closedAt,
      price: '3105',
      shares: '10',
      filledShares: '10',
      filledPrice: '3105',
      margin: position.margin,
      leverage: 10,
      createdAt: part!.closedAt,
      ...expected(position, '10', '3105'),
    })
    expect(toDecimal(closes[0]!.pnl!).greaterThan(0)).toBe(true)
    expect(part).toMatchObject({ status: 'closed', closePrice: '3105' })
  })

  it('a stop-loss reached by a price move: a filled stop-market at its trigger, with the loss', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const position = await open(client, { direction: 'short', stopLoss: '3050' })
    await setPrice('3060')

    const closes = await closesOf(client, position)
    const [part] = await closedParts(client)
    expect(closes).toHaveLength(1)
    expect(closes[0]).toMatchObject({
      type: 'stopMarket',
      direction: 'short',
      closeReason: 'stopLoss',
      triggerPrice: '3050',
      filledShares: '10',
      filledPrice: '3060',
      createdAt: part!.closedAt,
      ...expected(position, '10', '3060'),
    })
    // a short loses as the price rises: 100 usdt × 60 / 3000
    expect(closes[0]!.pnl).toBe('-2')
    expect((await client.ok('lossList'))[0]).toMatchObject({ status: 'triggered' })
  })

  it('a liquidation at the mark: a filled market order at the mark, the whole margin lost, no fee', async () => {
    await holdPrice(control, ETH, '3000')
    const client = await trader()
    const position = await open(client, { leverage: 100, shares: '5' })
    // one print under the liquidation price moves no mark: nothing closes
    await setPrice('2960')
    expect(await closesOf(client, position)).toEqual([])
    await holdPrice(control, ETH, '2940')

    const [liquidated] = (await client.ok('positionList', { query: { status: 'liquidated' } })).rows
    const closes = await closesOf(client, position)
    expect(closes).toHaveLength(1)
    expect(closes[0]).toMatchObject({
      type: 'market',
      closeReason: 'liquidation',
      filledShares: '5',
      filledPrice: liquidated!.closePrice,
      pnl: toDecimal(position.margin).negated().toFixed(),
      fee: '0',
      createdAt: liquidated!.closedAt,
    })
    // at the mark, above the last price the market fell to
    expect(toDecimal(liquidated!.closePrice).greaterThan('2940')).toBe(true)
  })
})
