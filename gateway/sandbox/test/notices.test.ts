import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { noticeOf, toDecimal, type UserNotice } from '@tradegate/shared'
import type { Sandbox } from '../app'
import {
  Client,
  fundedClient,
  holdPrice,
  openFeed,
  startTestSandbox,
  withFundPassword,
  type FeedSocket,
} from './helpers'

// The events a user is told about without asking at that moment: each rides in the per-user frame
// that carries its change, once, and the userNotices call lists it with the same id afterwards.

const ETH = 'ethusdt'
const SOL = 'solusdt'
const BTC = 'btcusdt'

describe('user events (notices)', () => {
  let sandbox: Sandbox
  let control: Client
  let feed: FeedSocket

  beforeAll(async () => {
    // no ticks: prices move only when the test sets them
    sandbox = await startTestSandbox({ tickMs: 600_000 })
    control = new Client(sandbox.url)
    feed = await openFeed(sandbox, true)
  })
  afterAll(async () => {
    await feed.close()
    await sandbox.close()
  })

  const setPrice = (price: string) => control.control('/sandbox/price', { symbol: ETH, price })

  /** The events the feed carried for one user so far, in order. */
  function eventsOf(userId: string): Array<{ type: unknown; event: UserNotice }> {
    return feed.frames.flatMap((frame) => {
      if (frame.userId !== userId) return []
      const event = noticeOf(frame.data as Record<string, unknown>)
      return event ? [{ type: frame.type, event }] : []
    })
  }

  /** Waits until the feed has brought the user's events to where `done` says. */
  async function waitForEvents(
    userId: string,
    done: (events: ReturnType<typeof eventsOf>) => boolean,
  ): Promise<void> {
    await feed.next(() => done(eventsOf(userId)))
  }

  async function trader(): Promise<{ client: Client; userId: string }> {
    const client = await fundedClient(sandbox, { usdt: '2000' })
    await client.ok('transferFunds', {
      body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '1000' },
    })
    const { userId } = await client.ok('userInfo')
    return { client, userId }
  }

  it('tells of a resting spot order filled by a price move, once, not of an order filled on submission', async () => {
    await setPrice('3000')
    const { client, userId } = await trader()
    await waitForEvents(userId, (events) => events.length === 1)
    const deposits = eventsOf(userId)
    expect(deposits.map(({ event }) => [event.kind, event.coin, event.amount])).toEqual([
      ['deposit', 'usdt', '2000'],
    ])
    await client.ok('spotOrderSubmit', { body: { symbol: ETH, side: 'buy', type: 'market', amount: '0.01' } })
    const resting = await client.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'buy', type: 'limit', price: '2990', amount: '0.1' },
    })
    expect(eventsOf(userId)).toHaveLength(1)
    await setPrice('2989')
    await feed.next(
      (frame) =>
        frame.userId === userId && noticeOf(frame.data as Record<string, unknown>)?.kind === 'orderFilled',
    )
    const fills = eventsOf(userId).slice(1)
    expect(fills).toHaveLength(1)
    expect(fills[0]!.type).toBe('OWNCOIN')
    expect(fills[0]!.event).toMatchObject({
      kind: 'orderFilled',
      symbol: ETH,
      side: 'buy',
      qty: '0.1',
      price: '2990',
    })
    expect(
      (await client.ok('spotOrderList', { query: { status: 'history' } })).rows.find(
        (row) => row.id === resting.id,
      )?.status,
    ).toBe('filled')
    // the call lists the same events, newest first, with the same ids
    const listed = await client.ok('userNotices', { query: { since: '0' } })
    expect(listed.map((row) => row.id)).toEqual([fills[0]!.event.id, deposits[0]!.event.id])
    expect(await client.ok('userNotices', { query: { since: String(fills[0]!.event.at + 1) } })).toEqual([])
  })

  it("tells the maker of a fill another user's order makes, in part, and not the taker", async () => {
    await setPrice('3000')
    const maker = await fundedClient(sandbox, { eth: '1' })
    const taker = await fundedClient(sandbox, { usdt: '2000' })
    const makerId = (await maker.ok('userInfo')).userId
    const takerId = (await taker.ok('userInfo')).userId
    await maker.ok('spotOrderSubmit', {
      body: { symbol: ETH, side: 'sell', type: 'limit', price: '3000.2', amount: '0.5' },
    })
    await taker.ok('spotOrderSubmit', { body: { symbol: ETH, side: 'buy', type: 'market', amount: '0.2' } })
    await waitForEvents(makerId, (events) => events.some(({ event }) => event.kind === 'orderPartFilled'))
    // the taker's own balance frames of the trade have come too
    await feed.next(
      (frame) =>
        frame.userId === takerId &&
        frame.type === 'OWNCOIN' &&
        (frame.data as { coin: string }).coin === 'eth',
    )
    const made = eventsOf(makerId).filter(({ event }) => event.kind !== 'deposit')
    expect(made.map(({ event }) => event)).toMatchObject([
      { kind: 'orderPartFilled', symbol: ETH, side: 'sell', qty: '0.2', price: '3000.2' },
    ])
    expect(eventsOf(takerId).filter(({ event }) => event.kind !== 'deposit')).toEqual([])
  })

  it('tells of a stop-loss, a take-profit and a liquidation with the price and the result, on the position frame', async () => {
    // each on a pair of its own: fills of one pair and side would join one position
    await holdPrice(control, ETH, '3000')
    await holdPrice(control, SOL, '150')
    await holdPrice(control, BTC, '60000')
    const { client, userId } = await trader()
    const open = (extra: Record<string, unknown>) =>
      client.ok('contractOrderSubmit', {
        body: { symbol: ETH, direction: 'long', type: 'market', leverage: 10, shares: '5', ...extra },
      })
    await open({ stopLoss: '2900' })
    await open({ symbol: SOL, takeProfit: '155' })
    await open({ symbol: BTC, leverage: 100 })
    expect(eventsOf(userId).map(({ event }) => event.kind)).toEqual(['deposit'])
    // the market stays 1 % down: on 100× the mark takes the whole margin
    await holdPrice(control, BTC, '59400')
    await waitForEvents(userId, (events) => events.some(({ event }) => event.kind === 'liquidated'))
    const liquidated = eventsOf(userId).filter(({ event }) => event.kind === 'liquidated')
    expect(liquidated).toHaveLength(1)
    const [position] = (await client.ok('positionList', { query: { status: 'liquidated' } })).rows
    expect(liquidated[0]).toMatchObject({
      type: 'POSITION',
      event: { symbol: BTC, side: 'long', qty: '5', price: position!.closePrice, coin: 'usdt' },
    })
    expect(Number(liquidated[0]!.event.amount)).toBeLessThan(0)
    await setPrice('2899')
    await control.control('/sandbox/price', { symbol: SOL, price: '155.1' })
    await waitForEvents(userId, (events) => events.some(({ event }) => event.kind === 'takeProfit'))
    const kinds = eventsOf(userId).map(({ event }) => event.kind)
    expect(kinds).toEqual(['deposit', 'liquidated', 'stopLoss', 'takeProfit'])
    const take = eventsOf(userId).at(-1)!.event
    expect(take).toMatchObject({ price: '155.1', qty: '5' })
    expect(Number(take.amount)).toBeGreaterThan(0)
  })

  it('tells of a withdrawal reviewed either way', async () => {
    const client = await fundedClient(sandbox, { usdt: '500' })
    const { userId } = await client.ok('userInfo')
    await control.control('/sandbox/settings', {
      WITHDRAWAL_SETTING: { startTime: '00:00:00', endTime: '23:59:59' },
    })
    await withFundPassword(client)
    const ask = () =>
      client.ok('withdrawSubmit', {
        query: {
          coin: 'usdt',
          chain: 'TRC20',
          amount: '50',
          address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
          pwd: 'fund-pass',
        },
      })
    const first = await ask()
    const second = await ask()
    await control.control('/sandbox/withdraw/review', { id: first.id, approve: true })
    await control.control('/sandbox/withdraw/review', { id: second.id, approve: false })
    await waitForEvents(
      userId,
      (events) => events.filter(({ event }) => event.kind === 'withdrawalReviewed').length === 2,
    )
    const reviewed = eventsOf(userId).filter(({ event }) => event.kind === 'withdrawalReviewed')
    expect(reviewed.map(({ event }) => [event.coin, event.amount, event.outcome])).toEqual([
      ['usdt', '50', 'approved'],
      ['usdt', '50', 'rejected'],
    ])
  })

  it('tells of a stop order its trigger filled, and of a second contract settled, with the price and the result', async () => {
    await holdPrice(control, ETH, '3000')
    const { client, userId } = await trader()
    await client.ok('contractOrderSubmit', {
      body: {
        symbol: ETH,
        direction: 'long',
        type: 'stopMarket',
        triggerPrice: '3050',
        leverage: 10,
        shares: '5',
      },
    })
    await setPrice('3060')
    await waitForEvents(userId, (events) => events.some(({ event }) => event.kind === 'orderFilled'))
    expect(eventsOf(userId).filter(({ event }) => event.kind === 'orderFilled')).toMatchObject([
      { type: 'POSITION', event: { symbol: ETH, side: 'long', qty: '5', price: '3060' } },
    ])

    const [period] = await client.ok('periodList', { body: { symbol: ETH } })
    const bet = await client.ok('secondOrderCreate', {
      body: { symbol: ETH, periodId: period!.id, direction: 'up', amount: '10' },
    })
    await setPrice(toDecimal(bet.openPrice).plus(20).toFixed())
    // the period ends: the sandbox settles what fell due at once
    await control.control('/sandbox/time', { advanceMs: period!.seconds * 1000 + 1000 })
    await waitForEvents(userId, (events) => events.some(({ event }) => event.kind === 'secondSettled'))
    const [settled] = (await client.ok('secondOrderList', { body: { pageNum: 1, pageSize: 5 } })).rows
    expect(settled).toMatchObject({ id: bet.id, status: 'win' })
    expect(eventsOf(userId).filter(({ event }) => event.kind === 'secondSettled')).toMatchObject([
      {
        type: 'SETTLEMENT',
        event: {
          symbol: ETH,
          side: 'up',
          qty: '10',
          price: settled!.closePrice,
          coin: 'usdt',
          amount: settled!.profit,
          outcome: 'win',
        },
      },
    ])
  })
})
