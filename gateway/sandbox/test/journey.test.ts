import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Decimal } from 'decimal.js'
import { toDecimal } from '@tradegate/shared'
import type { Sandbox } from '../app'
import {
  Client,
  eventually,
  openFeed,
  startTestSandbox,
  uniqueName,
  withFundPassword,
  type FeedSocket,
} from './helpers'

// One user's whole journey over real HTTP, with the feed watched on a real socket.

const truncate8 = (value: Decimal) => value.toDecimalPlaces(8, Decimal.ROUND_DOWN)

describe('sandbox journey', () => {
  let sandbox: Sandbox
  let feed: FeedSocket
  const client = (base: string) => new Client(base)

  beforeAll(async () => {
    sandbox = await startTestSandbox()
    feed = await openFeed(sandbox, true)
  })
  afterAll(async () => {
    await feed.close()
    await sandbox.close()
  })

  it('register → login → deposit → spot → contract → second contract → transfer → exchange → withdraw → records', async () => {
    const api = client(sandbox.url)
    const email = `${uniqueName('journey')}@example.com`
    const balance = async (account: string, coin: string) => {
      const rows = await api.ok('assetBalance')
      return toDecimal(rows.find((row) => row.account === account && row.coin === coin)?.available ?? '0')
    }

    // register by e-mail with the code the sandbox "sent"
    await api.ok('sendEmailCode', { query: { codeType: 'register', email } })
    const { code } = await api.control<{ code: string }>(
      `/sandbox/last-code?to=${encodeURIComponent(email)}`,
      undefined,
      'GET',
    )
    const registered = await api.ok('register', {
      body: { type: 'email', username: email, password: 'first-pass', code, inviteCode: sandbox.inviteCode },
    })
    expect(registered.credit).toBe('80')

    // login, automatic sign-in, user info
    const session = await api.ok('login', {
      body: { type: 'email', username: email, password: 'first-pass' },
    })
    api.token = (await api.ok('autoLogin', { body: { loginKey: session.loginKey } })).satoken
    const me = await api.ok('userInfo')
    expect(me).toMatchObject({ userId: registered.userId, email })
    expect(await balance('platform', 'usdt')).toEqual(toDecimal(80))

    // deposit
    await api.control('/sandbox/deposit', { username: email, coin: 'usdt', amount: '1000' })
    expect((await balance('platform', 'usdt')).toFixed()).toBe('1080')

    // spot market buy of 0.001 btc: the price plus a 0.2 % fee leaves usdt, the coin arrives
    await api.control('/sandbox/price', { symbol: 'btcusdt', price: '60000' })
    const spot = await api.ok('spotOrderSubmit', {
      body: { symbol: 'btcusdt', side: 'buy', type: 'market', amount: '0.001' },
    })
    expect(spot.status).toBe('filled')
    const spotCost = toDecimal(spot.filledPrice).times('0.001')
    expect(spot.fee).toBe(truncate8(spotCost.times('0.002')).toFixed())
    expect(toDecimal(spot.filledPrice).minus(60000).abs().lessThan(600)).toBe(true)
    expect((await balance('platform', 'usdt')).toFixed()).toBe(
      toDecimal(1080).minus(spotCost).minus(spot.fee).toFixed(),
    )
    expect((await balance('platform', 'btc')).toFixed()).toBe('0.001')

    // contract: 10 shares (100 usdt) long at 10x in the contract account
    await api.ok('transferFunds', { body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '200' } })
    const order = await api.ok('contractOrderSubmit', {
      body: { symbol: 'btcusdt', direction: 'long', type: 'market', leverage: 10, shares: '10' },
    })
    expect(order).toMatchObject({ status: 'filled', margin: '10' })
    expect((await balance('contract', 'usdt')).toFixed()).toBe('189.9')
    const [position] = (await api.ok('positionList', { query: { status: 'open' } })).rows
    expect(position).toMatchObject({ symbol: 'btcusdt', direction: 'long', margin: '10', status: 'open' })
    const opened = await feed.next((frame) => frame.type === 'POSITION' && frame.userId === me.userId)
    expect(opened.data).toMatchObject({ id: position!.id, status: 'open' })

    // the price moves up 5 % by control: the open position shows about 5 usdt of profit
    const openPrice = toDecimal(position!.openPrice)
    // (PnL follows the mark price, which comes to a price the market stays at within a few ticks)
    await eventually(async () => {
      await api.control('/sandbox/price', { symbol: 'btcusdt', price: openPrice.times('1.05').toFixed(2) })
      const [moved] = (await api.ok('positionList', { query: { status: 'open' } })).rows
      return toDecimal(moved!.pnl).minus(5).abs().lessThan('0.2') || undefined
    }, 20_000)

    // close: margin back plus PnL, minus the 0.1 % close fee
    const closed = await api.ok('positionStop', { query: { id: String(position!.id) } })
    expect(closed.status).toBe('closed')
    const expectedPnl = truncate8(
      toDecimal(100).times(toDecimal(closed.closePrice).minus(openPrice)).dividedBy(openPrice),
    )
    expect(closed.pnl).toBe(expectedPnl.toFixed())
    const contractBalance = toDecimal('189.9').plus(10).plus(expectedPnl).minus('0.1')
    expect((await balance('contract', 'usdt')).toFixed()).toBe(contractBalance.toFixed())

    // second contract: 20 usdt up for 1 s; the price is pushed up, so it settles as a win paying 10 %
    const periods = await api.ok('periodList', { body: { symbol: 'btcusdt' } })
    const shortest = periods.find((period) => period.seconds === 1)!
    const platformBefore = await balance('platform', 'usdt')
    const bet = await api.ok('secondOrderCreate', {
      body: { symbol: 'btcusdt', periodId: shortest.id, direction: 'up', amount: '20' },
    })
    expect(bet.status).toBe('open')
    await api.control('/sandbox/price', {
      symbol: 'btcusdt',
      price: toDecimal(bet.openPrice).times('1.02').toFixed(2),
    })
    const settled = await eventually(async () => {
      const { rows } = await api.ok('secondOrderList', { body: {} })
      return rows.find((row) => row.id === bet.id && row.status !== 'open')
    })
    expect(settled).toMatchObject({ status: 'win', profit: toDecimal(20).times(shortest.rate).toFixed() })
    expect(toDecimal(settled.closePrice).greaterThan(settled.openPrice)).toBe(true)
    expect((await balance('platform', 'usdt')).toFixed()).toBe(platformBefore.plus(settled.profit).toFixed())
    const settlement = await feed.next((frame) => frame.type === 'SETTLEMENT' && frame.userId === me.userId)
    expect(settlement.data).toMatchObject({ id: bet.id, status: 'win' })

    // transfer the contract account back, then exchange the btc for usdt at the live price
    await api.ok('transferFunds', {
      body: { coin: 'usdt', from: 'contract', to: 'platform', amount: contractBalance.toFixed() },
    })
    expect((await balance('contract', 'usdt')).isZero()).toBe(true)
    const beforeExchange = await balance('platform', 'usdt')
    const exchanged = await api.ok('currencyExchange', { body: { from: 'btc', to: 'usdt', amount: '0.001' } })
    expect(toDecimal(exchanged.received).greaterThan(50)).toBe(true)
    expect((await balance('platform', 'btc')).isZero()).toBe(true)
    expect((await balance('platform', 'usdt')).toFixed()).toBe(
      beforeExchange.plus(exchanged.received).toFixed(),
    )

    // withdraw 100 usdt: fund password, an address, the window opened all day for the test
    await api.control('/sandbox/settings', {
      WITHDRAWAL_SETTING: { startTime: '00:00:00', endTime: '00:00:00' },
    })
    await withFundPassword(api)
    const address = 'TXYZabcdefghijkmnopqrstuvwxyz12345'
    await api.ok('updateWithdrawAddress', { query: { type: 'TRC20', address } })
    const beforeWithdraw = await balance('platform', 'usdt')
    const withdrawal = await api.ok('withdrawSubmit', {
      query: { coin: 'usdt', amount: '100', address, pwd: 'fund-pass', chain: 'TRC20' },
    })
    expect(withdrawal).toMatchObject({ status: 'frozen', amount: '100', fee: '10' })
    expect((await balance('platform', 'usdt')).toFixed()).toBe(beforeWithdraw.minus(100).toFixed())
    expect((await api.ok('withdrawFreezeList')).map((row) => row.id)).toContain(withdrawal.id)
    await eventually(async () => {
      const { rows } = await api.ok('withdrawList', { query: {} })
      return rows.find((row) => row.id === withdrawal.id && row.status === 'pending')
    })
    await api.control('/sandbox/withdraw/review', { id: withdrawal.id, approve: true })
    const { rows: withdrawals } = await api.ok('withdrawList', { query: {} })
    expect(withdrawals.find((row) => row.id === withdrawal.id)?.status).toBe('completed')
    expect((await api.ok('withdrawFreezeList')).length).toBe(0)

    // the records show every step
    const { rows: records, total } = await api.ok('financialRecords', { query: { pageSize: '100' } })
    expect(total).toBe(records.length)
    const kinds = new Set(records.map((record) => record.kind))
    for (const kind of [
      'bonus',
      'deposit',
      'spot',
      'transfer',
      'contract',
      'second',
      'exchange',
      'withdraw',
    ]) {
      expect(kinds, kind).toContain(kind)
    }
    const { rows: depositsOnly } = await api.ok('financialRecords', { query: { kind: 'deposit' } })
    expect(depositsOnly.map((record) => record.amount)).toEqual(['1000'])
    expect((await api.ok('currencyRecords', { query: {} })).rows.map((row) => row.id)).toEqual([spot.id])
    // the opening order, and above it the market order the close at the market left, filled at its price
    const trades = (await api.ok('tradingRecords', { query: {} })).rows
    expect(trades).toHaveLength(2)
    expect(trades[1]!.id).toBe(order.id)
    expect(trades[0]).toMatchObject({ type: 'market', status: 'filled', positionId: position!.id })
    expect(trades[0]!.filledPrice).toBe(closed.closePrice)
    expect((await api.ok('secondRecords', { query: {} })).rows.map((row) => row.id)).toEqual([bet.id])
    expect((await api.ok('rechargeList', { query: {} })).rows[0]).toMatchObject({
      amount: '1000',
      status: 'completed',
    })
    expect((await api.ok('rechargeBonusList', { query: {} })).rows[0]).toMatchObject({
      amount: '80',
      kind: 'bonus',
    })
    const profit = await api.ok('getProfit')
    expect(profit.total).toBe(expectedPnl.minus('0.1').plus(settled.profit).toFixed())

    // the book still balances: users, house and fees hold exactly what came in
    const audit = await api.control<
      Record<string, { users: string; house: string; fees: string; inflow: string }>
    >('/sandbox/audit', undefined, 'GET')
    for (const [coin, row] of Object.entries(audit)) {
      expect(toDecimal(row.users).plus(row.house).plus(row.fees).toFixed(), coin).toBe(
        toDecimal(row.inflow).toFixed(),
      )
    }
  }, 20_000)
})
