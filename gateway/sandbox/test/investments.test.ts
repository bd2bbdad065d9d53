import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../app'
import { Client, registeredClient, startTestSandbox } from './helpers'

// Finance and proxy products: names in the request's language, holdings, and redeeming them.

describe('sandbox investments', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(async () => {
    await sandbox.close()
  })

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

    const user = await registeredClient(sandbox)
    await user.control('/sandbox/deposit', { username: await usernameOf(user), coin: 'usdt', amount: '1000' })
    user.language = 'fr'
    const holding = await user.ok('financeSubscribe', { body: { productId: 1, amount: '10' } })
    expect(holding.name).toBe('USDT Flexible 7 jours')
    user.language = 'pl'
    expect((await user.ok('financeOrders')).rows[0]!.name).toBe('USDT Elastyczny 7 dni')
  })
})

async function usernameOf(client: Client): Promise<string> {
  return (await client.ok('userInfo')).username
}
