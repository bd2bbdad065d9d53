import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../app'
import { toDecimal } from '@tradegate/shared'
import { Client, eventually, fundedClient, registeredClient, startTestSandbox } from './helpers'

const DAY_MS = 86_400_000

// Finance and proxy products: names in the request's language, holdings, and redeeming them.

describe('sandbox investments', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(async () => {
    await sandbox.close()
  })

  /** A new user whose platform account holds `usdt` beyond the registration credit, spent first on nothing. */
  async function fundedUser(usdt: string): Promise<Client> {
    const user = await registeredClient(sandbox)
    const start = toDecimal((await platformUsdt(user)) ?? '0')
    const topUp = toDecimal(usdt).minus(start)
    await user.control('/sandbox/deposit', {
      username: await usernameOf(user),
      coin: 'usdt',
      amount: topUp.toFixed(),
    })
    return user
  }

  it('names products and holdings in the language the request names, in English otherwise', async () => {
    const names = async (language: string) => {
      const client = new Client(sandbox.url)
      client.language = language
      return {
        finance: (await client.ok('financeProducts')).map((product) => product.name),
        proxy: (await client.ok('proxyProducts')).map((product) => product.name),
      }
    }
    const english = await names('en')
    expect(english.finance[0]).toBe('USDT Flexible 7 days')
    expect(english.proxy[0]).toBe('Steady quant desk')
    expect((await names('de')).finance[1]).toBe('USDT Festgeld 30 Tage')
    expect((await names('ja-JP')).proxy[1]).toBe('トレンドフォローデスク')
    expect(await names('xx')).toEqual(english)
    // every language has its own names for every product
    const seen = new Set<string>()
    for (const code of [
      'zh',
      'ja',
      'ko',
      'th',
      'vi',
      'pt',
      'es',
      'fr',
      'ru',
      'de',
      'it',
      'pl',
      'ar',
      'da',
      'tr',
    ]) {
      const named = await names(code)
      for (const [index, name] of named.finance.entries()) expect(name).not.toBe(english.finance[index])
      for (const [index, name] of named.proxy.entries()) expect(name).not.toBe(english.proxy[index])
      seen.add(named.proxy.join('|'))
    }
    expect(seen.size).toBe(15)

    const user = await fundedClient(sandbox, { usdt: '1000' })
    user.language = 'fr'
    const holding = await user.ok('financeSubscribe', { body: { productId: 1, amount: '10' } })
    expect(holding.name).toBe('USDT Flexible 7 jours')
    user.language = 'pl'
    expect((await user.ok('financeOrders')).rows[0]!.name).toBe('USDT Elastyczny 7 dni')
  })

  it("states each product's early-redeem rule and settlement time", async () => {
    const client = new Client(sandbox.url)
    const finance = await client.ok('financeProducts')
    expect(finance.map((product) => [product.redeemPenalty, product.settleHours])).toEqual([
      ['0', 0],
      ['0.01', 24],
      ['0.02', 24],
    ])
    const proxy = await client.ok('proxyProducts')
    expect(proxy.every((product) => toDecimal(product.redeemPenalty).greaterThan(0))).toBe(true)
  })

  it('redeems a flexible product at once with the interest earned so far', async () => {
    const user = await fundedUser('1000')
    const holding = await user.ok('financeSubscribe', { body: { productId: 1, amount: '100' } })
    await advance(user, 3 * DAY_MS + 1000)
    const redeemed = await user.ok('financeRedeem', { query: { id: String(holding.id) } })
    // 100 × 0.001 a day × 3 whole days
    expect(redeemed).toMatchObject({ status: 'redeemed', earned: '0.3', payout: '100.3' })
    expect(await platformUsdt(user)).toBe('1000.3')
    expect(await user.refused('financeRedeem', { query: { id: String(holding.id) } })).toBe(
      'holdingNotRunning',
    )
  })

  it('redeems a fixed product less its penalty and without interest, paid after the settlement time', async () => {
    const user = await fundedUser('1000')
    const holding = await user.ok('financeSubscribe', { body: { productId: 2, amount: '200' } })
    await advance(user, 2 * DAY_MS)
    const redeeming = await user.ok('financeRedeem', { query: { id: String(holding.id) } })
    expect(redeeming).toMatchObject({ status: 'redeeming', earned: '0', payout: '198' })
    expect(redeeming.settlesAt - redeeming.createdAt).toBeGreaterThan(2 * DAY_MS + 23 * 3_600_000)
    expect(await platformUsdt(user)).toBe('800')
    await advance(user, 25 * 3_600_000)
    await eventually(async () => ((await platformUsdt(user)) === '998' ? true : undefined))
    expect((await user.ok('financeOrders')).rows[0]).toMatchObject({ status: 'redeemed', payout: '198' })
    // another user cannot redeem it, and a proxy holding is redeemed through its own call
    const other = await fundedUser('500')
    expect(await other.refused('financeRedeem', { query: { id: String(holding.id) } })).toBe('unknownHolding')
    const desk = await other.ok('proxySubscribe', { body: { productId: 11, amount: '100' } })
    expect(await other.ok('proxyRedeem', { query: { id: String(desk.id) } })).toMatchObject({
      status: 'redeeming',
      payout: '98',
    })
  })
})

async function usernameOf(client: Client): Promise<string> {
  return (await client.ok('userInfo')).username
}

/** Moves sandbox time forward; the session expires on the way, so the user signs in again. */
async function advance(user: Client, advanceMs: number): Promise<void> {
  const username = await usernameOf(user)
  await user.control('/sandbox/time', { advanceMs })
  const session = await user.ok('login', { body: { type: 'account', username, password: 'secret-pass' } })
  user.token = session.satoken
}

async function platformUsdt(client: Client): Promise<string | undefined> {
  const balances = await client.ok('assetBalance')
  return balances.find((row) => row.account === 'platform' && row.coin === 'usdt')?.available
}
