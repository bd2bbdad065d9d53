import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Decimal } from 'decimal.js'
import { toDecimal } from '@tradegate/shared'
import type { Sandbox } from '../app'
import { Client, registeredClient, startTestSandbox, withFundPassword } from './helpers'

// Random sequences of operations never create or destroy money: what users hold, plus what the house
// (counterparty of every trade) and the fee pool hold, always equals what came in from outside
// (registration credits, deposits, welfare rewards) minus what was paid out by withdrawals. Options
// bought and settled as sandbox time moves past their expiries count too.

const SYMBOLS = ['btcusdt', 'ethusdt', 'trxusdt', 'xauusdt'] as const
const COINS = ['usdt', 'btc', 'eth', 'trx'] as const
const ACCOUNTS = ['platform', 'contract', 'financial'] as const
const AMOUNTS = ['0.5', '1', '3.25', '10', '25', '80', '150', '999', '0.00012345'] as const

type Operation = { kind: string; user: number } & Record<string, string | number | boolean>

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('deposit'),
    user: fc.nat(2),
    coin: fc.constantFrom(...COINS),
    amount: fc.constantFrom(...AMOUNTS),
  }),
  fc.record({
    kind: fc.constant('transfer'),
    user: fc.nat(2),
    from: fc.constantFrom(...ACCOUNTS),
    to: fc.constantFrom(...ACCOUNTS),
    amount: fc.constantFrom(...AMOUNTS),
  }),
  fc.record({
    kind: fc.constant('spot'),
    user: fc.nat(2),
    symbol: fc.constantFrom('btcusdt', 'ethusdt', 'trxusdt'),
    side: fc.constantFrom('buy', 'sell'),
    limit: fc.boolean(),
    // near the price: resting inside the simulated book, where other users' orders walk into them
    offset: fc.constantFrom('0.98', '0.999', '1', '1.00001', '1.001', '1.02'),
    // the order's usdt value, so most orders are within the pair's limits and the user's means
    value: fc.constantFrom('6', '40', '300', '900', '5000'),
  }),
  fc.record({ kind: fc.constant('cancelSpot'), user: fc.nat(2), newest: fc.boolean() }),
  fc.record({
    kind: fc.constant('closeSome'),
    user: fc.nat(2),
    shares: fc.constantFrom('1', '2', '5'),
    limit: fc.constantFrom('', '0.99', '1.01'),
  }),
  fc.record({
    kind: fc.constant('contract'),
    user: fc.nat(2),
    symbol: fc.constantFrom(...SYMBOLS),
    direction: fc.constantFrom('long', 'short'),
    leverage: fc.constantFrom(5, 10, 100),
    shares: fc.constantFrom('1', '3', '20'),
    limit: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('closePosition'), user: fc.nat(2) }),
  fc.record({ kind: fc.constant('cancelOrder'), user: fc.nat(2) }),
  fc.record({
    kind: fc.constant('adjustMargin'),
    user: fc.nat(2),
    amount: fc.constantFrom(...AMOUNTS),
    add: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('second'),
    user: fc.nat(2),
    symbol: fc.constantFrom('btcusdt', 'ethusdt', 'trxusdt'),
    direction: fc.constantFrom('up', 'down'),
    amount: fc.constantFrom('10', '25', '150'),
  }),
  fc.record({
    kind: fc.constant('exchange'),
    user: fc.nat(2),
    from: fc.constantFrom(...COINS),
    to: fc.constantFrom(...COINS),
    amount: fc.constantFrom(...AMOUNTS),
  }),
  fc.record({ kind: fc.constant('withdraw'), user: fc.nat(2), amount: fc.constantFrom('20', '50', '300') }),
  fc.record({ kind: fc.constant('review'), user: fc.nat(2), approve: fc.boolean() }),
  fc.record({
    kind: fc.constant('follow'),
    user: fc.nat(2),
    traderId: fc.integer({ min: 1, max: 8 }),
    stop: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('finance'), user: fc.nat(2), amount: fc.constantFrom('10', '100', '1000') }),
  fc.record({ kind: fc.constant('welfare'), user: fc.nat(2), task: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('option'),
    user: fc.nat(2),
    coin: fc.constantFrom('btc', 'eth', 'trx', 'xau'),
    expiry: fc.nat(2),
    strike: fc.nat(8),
    call: fc.boolean(),
    lots: fc.constantFrom(1, 3, 40),
  }),
  fc.record({ kind: fc.constant('time'), user: fc.nat(2), minutes: fc.constantFrom(5, 16, 61) }),
  fc.record({
    kind: fc.constant('price'),
    user: fc.nat(2),
    symbol: fc.constantFrom(...SYMBOLS),
    factor: fc.constantFrom('0.7', '0.97', '1.03', '1.4'),
  }),
)

describe('sandbox money', () => {
  let sandbox: Sandbox
  let control: Client
  const everyone: Client[] = []
  const inflow = new Map<string, Decimal>()
  const addInflow = (coin: string, amount: Decimal.Value) =>
    inflow.set(coin, (inflow.get(coin) ?? toDecimal(0)).plus(amount))

  async function start(tickMs: number): Promise<void> {
    sandbox = await startTestSandbox({ tickMs })
    control = new Client(sandbox.url)
    await control.control('/sandbox/settings', {
      WITHDRAWAL_SETTING: { startTime: '00:00:00', endTime: '00:00:00', dayCount: 1000, freeCount: 1 },
      FINANCIAL_REBATE: { enabled: true },
    })
  }

  beforeAll(() => start(40))
  afterAll(() => sandbox.close())

  async function newUsers(): Promise<Client[]> {
    const first = await registeredClient(sandbox)
    // the others are invited by the first, so invite rebates move money too
    const { inviteCode } = await first.ok('userInfo')
    const users = [first]
    for (let index = 0; index < 2; index++) {
      const client = new Client(sandbox.url)
      const session = await client.ok('register', {
        body: {
          type: 'account',
          username: `prop${Date.now().toString(36)}${index}${everyone.length}`,
          password: 'secret-pass',
          inviteCode,
        },
      })
      client.token = session.satoken
      users.push(client)
    }
    for (const user of users) {
      await withFundPassword(user)
      const { userId } = await user.ok('userInfo')
      await user.control('/sandbox/deposit', { userId, coin: 'usdt', amount: '1000' })
      addInflow('usdt', 1080)
    }
    everyone.push(...users)
    return users
  }

  async function run(users: Client[], op: Operation): Promise<void> {
    const api = users[op.user]!
    const { userId } = await api.ok('userInfo')
    switch (op.kind) {
      case 'deposit':
        await api.control('/sandbox/deposit', { userId, coin: op.coin, amount: op.amount })
        addInflow(String(op.coin), String(op.amount))
        return
      case 'transfer':
        await api.call('transferFunds', {
          body: { coin: 'usdt', from: op.from, to: op.to, amount: op.amount },
        })
        return
      case 'spot': {
        const { market } = sandbox.state
        const { pricePlaces, quantityPlaces } = market.instrument(String(op.symbol))
        const last = market.price(String(op.symbol))
        const price = last.times(String(op.offset)).toDecimalPlaces(pricePlaces)
        const amount = toDecimal(String(op.value)).dividedBy(last).toDecimalPlaces(quantityPlaces, 1)
        await api.call('spotOrderSubmit', {
          body: {
            symbol: op.symbol,
            side: op.side,
            type: op.limit ? 'limit' : 'market',
            amount: amount.toFixed(),
            ...(op.limit ? { price: price.toFixed() } : {}),
          },
        })
        return
      }
      case 'contract': {
        const price = sandbox.state.market.price(String(op.symbol)).times('0.999').toDecimalPlaces(2)
        await api.call('contractOrderSubmit', {
          body: {
            symbol: op.symbol,
            direction: op.direction,
            type: op.limit ? 'limit' : 'market',
            leverage: op.leverage,
            shares: op.shares,
            ...(op.limit ? { price: price.toFixed() } : {}),
          },
        })
        return
      }
      case 'cancelSpot': {
        const open = (await api.ok('spotOrderList', { query: { status: 'open' } })).rows
        const order = op.newest ? open[0] : open.at(-1)
        if (order) await api.call('spotOrderCancel', { query: { id: String(order.id) } })
        return
      }
      case 'closeSome': {
        const [position] = (await api.ok('positionList', { query: { status: 'open' } })).rows
        if (!position) return
        const price = op.limit
          ? sandbox.state.market.price(position.symbol).times(String(op.limit)).toDecimalPlaces(2).toFixed()
          : undefined
        await api.call('positionStop', {
          query: { id: String(position.id), shares: String(op.shares), ...(price ? { price } : {}) },
        })
        return
      }
      case 'closePosition': {
        const [position] = (await api.ok('positionList', { query: { status: 'open' } })).rows
        if (position) await api.call('positionStop', { query: { id: String(position.id) } })
        return
      }
      case 'cancelOrder': {
        const [order] = await api.ok('contractOrderList', { query: { status: 'open' } })
        if (order) await api.call('contractOrderCancel', { query: { id: String(order.id) } })
        return
      }
      case 'adjustMargin': {
        const [position] = (await api.ok('positionList', { query: { status: 'open' } })).rows
        if (position) {
          await api.call('positionAdjustMargin', {
            query: { id: String(position.id), money: String(op.amount), flag: op.add ? '1' : '0' },
          })
        }
        return
      }
      case 'second': {
        const periods = await api.ok('periodList', { body: { symbol: String(op.symbol) } })
        await api.call('secondOrderCreate', {
          body: { symbol: op.symbol, periodId: periods[0]!.id, direction: op.direction, amount: op.amount },
        })
        return
      }
      case 'exchange':
        await api.call('currencyExchange', { body: { from: op.from, to: op.to, amount: op.amount } })
        return
      case 'withdraw':
        await api.call('withdrawSubmit', {
          query: {
            coin: 'usdt',
            amount: String(op.amount),
            address: 'TXYZabcdefghijkmnopqrstuvwxyz12345',
            pwd: 'fund-pass',
          },
        })
        return
      case 'review': {
        const [pending] = await api.ok('withdrawFreezeList')
        if (!pending) return
        await api.control('/sandbox/withdraw/review', { id: pending.id, approve: op.approve })
        // the amount leaves less its fee, which the fee pool keeps
        if (op.approve) addInflow('usdt', toDecimal(pending.amount).minus(pending.fee).negated())
        return
      }
      case 'follow': {
        const active = (await api.ok('followMine')).find((row) => row.status === 'following')
        if (op.stop && active) await api.call('followStop', { query: { id: String(active.id) } })
        else await api.call('followStart', { body: { traderId: op.traderId, amount: '100' } })
        return
      }
      case 'finance':
        await api.call('financeSubscribe', { body: { productId: 1, amount: op.amount } })
        return
      case 'welfare': {
        const answer = await api.call('welfareClaim', { query: { id: String(op.task) } })
        if (answer.code === 200) addInflow(answer.data!.coin, answer.data!.reward)
        return
      }
      case 'option': {
        const chain = await api.ok('optionChain', { query: { coin: String(op.coin) } })
        const expiry = chain.expiries[Number(op.expiry) % chain.expiries.length]!
        await api.call('optionOrderSubmit', {
          body: {
            coin: op.coin,
            expiresAt: expiry.expiresAt,
            strike: expiry.strikes[Number(op.strike)],
            kind: op.call ? 'call' : 'put',
            quantity: toDecimal(chain.lotSize).times(Number(op.lots)).toFixed(),
            maxPremium: '1000000',
          },
        })
        return
      }
      case 'time':
        // expiries (and everything else that waits for a time) fall due
        await api.control('/sandbox/time', { advanceMs: Number(op.minutes) * 60_000 })
        return
      case 'price': {
        const price = sandbox.state.market.price(String(op.symbol)).times(String(op.factor))
        await api.control('/sandbox/price', { symbol: op.symbol, price: price.toDecimalPlaces(8).toFixed() })
        return
      }
    }
  }

  /** Read in one go, without awaiting: a tick settling an order between two reads would count it twice. */
  function holdings(): Map<string, Decimal> {
    const totals = new Map<string, Decimal>()
    const { ledger, users } = sandbox.state
    // every account, the sandbox's own too: it owns the root invite code and so earns invite rebates
    for (const user of users.all) {
      for (const row of ledger.balances(user.id)) {
        totals.set(row.coin, (totals.get(row.coin) ?? toDecimal(0)).plus(row.available).plus(row.frozen))
      }
    }
    for (const coin of new Set([...totals.keys(), ...inflow.keys()])) {
      totals.set(
        coin,
        (totals.get(coin) ?? toDecimal(0)).plus(ledger.pool('house', coin)).plus(ledger.pool('fees', coin)),
      )
    }
    return totals
  }

  /** Everything users, the house and the fees hold equals what came in, and no wallet is negative. */
  async function expectConserved(users: Client[]): Promise<void> {
    const totals = holdings()
    for (const coin of new Set([...totals.keys(), ...inflow.keys()])) {
      expect((totals.get(coin) ?? toDecimal(0)).toFixed(), coin).toBe(
        (inflow.get(coin) ?? toDecimal(0)).toFixed(),
      )
    }
    for (const row of await Promise.all(users.map((user) => user.ok('assetBalance')))) {
      for (const balance of row)
        expect(toDecimal(balance.available).isNegative() || toDecimal(balance.frozen).isNegative()).toBe(
          false,
        )
    }
  }

  it('never creates or destroys money, whatever the order of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 5, maxLength: 25 }), async (operations) => {
        const users = await newUsers()
        for (const op of operations) await run(users, op)
        await expectConserved(users)
      }),
      { numRuns: 12 },
    )
    // the operations really moved money around, or the property would prove nothing
    const kinds = new Set<string>()
    for (const client of everyone) {
      // every page of each user's records, 100 (the largest page) at a time
      for (let pageNum = 1; ; pageNum++) {
        const page = await client.ok('financialRecords', {
          query: { pageNum: String(pageNum), pageSize: '100' },
        })
        for (const record of page.rows) kinds.add(record.kind)
        if (page.rows.length < 100) break
      }
    }
    expect(kinds.size).toBeGreaterThanOrEqual(6)
    expect(kinds).toContain('option')
    // twelve runs of up to 25 calls each: beside two busy loops this took over a minute, and the
    // bound only ends a run that has already failed
  }, 600_000)

  it('conserves money through resting, walked, partly filled and cancelled orders and partial closes', async () => {
    // a market that moves only when told, so each step meets the orders it is meant to
    await sandbox.close()
    await start(600_000)
    inflow.clear()
    const users = await newUsers()
    const script: Operation[] = [
      { kind: 'deposit', user: 1, coin: 'trx', amount: '999' },
      { kind: 'deposit', user: 1, coin: 'trx', amount: '999' },
      // one tick above the price: the best ask, ahead of the simulated levels
      {
        kind: 'spot',
        user: 1,
        symbol: 'trxusdt',
        side: 'sell',
        limit: true,
        offset: '1.00001',
        value: '200',
      },
      // walks into it and takes part of it
      { kind: 'spot', user: 0, symbol: 'trxusdt', side: 'buy', limit: false, offset: '1', value: '40' },
      { kind: 'cancelSpot', user: 1, newest: true },
      { kind: 'spot', user: 2, symbol: 'trxusdt', side: 'buy', limit: true, offset: '0.999', value: '40' },
      { kind: 'price', user: 2, symbol: 'trxusdt', factor: '0.97' },
      { kind: 'spot', user: 0, symbol: 'ethusdt', side: 'buy', limit: true, offset: '0.98', value: '300' },
      { kind: 'cancelSpot', user: 0, newest: true },
      { kind: 'spot', user: 2, symbol: 'btcusdt', side: 'buy', limit: false, offset: '1', value: '900' },
      { kind: 'transfer', user: 0, from: 'platform', to: 'contract', amount: '150' },
      {
        kind: 'contract',
        user: 0,
        symbol: 'ethusdt',
        direction: 'long',
        leverage: 10,
        shares: '20',
        limit: false,
      },
      { kind: 'closeSome', user: 0, shares: '5', limit: '' },
      { kind: 'closeSome', user: 0, shares: '2', limit: '1.01' },
      { kind: 'price', user: 0, symbol: 'ethusdt', factor: '1.03' },
      { kind: 'closePosition', user: 0 },
    ]
    for (const op of script) await run(users, op)
    await expectConserved(users)

    const orders = (await Promise.all(users.map((user) => user.ok('spotOrderList', { query: {} })))).flatMap(
      (page) => page.rows,
    )
    const partlyFilled = orders.find((order) => order.status === 'cancelled' && order.filledAmount !== '0')
    expect(partlyFilled, JSON.stringify(orders)).toBeDefined()
    expect(toDecimal(partlyFilled!.filledAmount).lessThan(partlyFilled!.amount)).toBe(true)
    expect(orders.filter((order) => order.status === 'filled' && order.type === 'limit')).toHaveLength(1)
    expect(orders.filter((order) => order.status === 'cancelled')).toHaveLength(2)
    const closed = (await users[0]!.ok('positionList', { query: { status: 'closed' } })).rows
    expect(closed.map((position) => position.shares).sort()).toEqual(['13', '2', '5'])
  }, 600_000)
})
