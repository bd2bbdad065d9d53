import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NETWORK_RULES, checkAddress, withdrawalFee } from '@tradegate/shared'
import type { Sandbox } from '../app'
import { fundedClient, registeredClient, startTestSandbox, withFundPassword, type Client } from './helpers'

// Withdrawals by network: address formats and tags, the fee formula the client quotes with, the
// address book on its own, and amounts no finer than their coin.

const TRON = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'
const ETHEREUM = '0x52908400098527886E0F7030069857D2E4169EE7'
const RIPPLE = 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh'

describe('sandbox withdrawals', () => {
  let sandbox: Sandbox
  // 15:00 in the settings' UTC+8, inside the 11:00-23:00 withdrawal window
  const clock = () => {
    const now = Date.now()
    const hour = new Date(now + 8 * 3600_000).getUTCHours()
    return now - ((hour - 15 + 24) % 24) * 3600_000
  }
  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  async function fundedUser(): Promise<Client> {
    const client = await fundedClient(sandbox, { usdt: '1000', xrp: '500' })
    await withFundPassword(client)
    return client
  }

  it('hands out deposit addresses in the format of each network it lists', async () => {
    const client = await registeredClient(sandbox)
    const channels = await client.ok('getWithDrawCoinList')
    const networks = new Set(channels.map((channel) => channel.rechargeType))
    expect([...networks].sort()).toEqual(['BTC', 'ERC20', 'TRC20', 'XRP'])
    for (const network of networks) expect(NETWORK_RULES[network], network).toBeDefined()
    for (const channel of channels) {
      const [coin = ''] = channel.rechargeName.toLowerCase().split('-')
      const { address } = await client.ok('payAddress', { body: { coin, chain: channel.rechargeType } })
      const tag = NETWORK_RULES[channel.rechargeType]?.memo?.required ? '1' : ''
      expect(
        checkAddress(channel.rechargeType, address, tag),
        `${channel.rechargeName} ${address}`,
      ).toBeNull()
    }
  })

  // the address rules are part of the call's schema, which the sandbox checks as the exchange would
  it('refuses an address of another network, a missing tag, and an amount finer than the coin', async () => {
    const client = await fundedUser()
    const withdraw = { coin: 'usdt', chain: 'TRC20', amount: '100', address: TRON, pwd: 'fund-pass' }
    expect(await client.refused('withdrawSubmit', { query: { ...withdraw, address: ETHEREUM } })).toBe(
      'invalidParameter',
    )
    expect(
      await client.refused('withdrawSubmit', {
        query: { ...withdraw, coin: 'xrp', chain: 'XRP', amount: '50', address: RIPPLE },
      }),
    ).toBe('invalidParameter')
    expect(
      await client.refused('withdrawSubmit', { query: { ...withdraw, amount: '100.00000000001' } }),
    ).toBe('coinPrecisionExceeded')
    const tagged = await client.ok('withdrawSubmit', {
      query: { ...withdraw, coin: 'xrp', chain: 'XRP', amount: '50', address: RIPPLE, memo: '12345' },
    })
    expect(tagged).toMatchObject({ coin: 'xrp', amount: '50', address: RIPPLE })
  })

  it("holds a withdrawal without chain to the coin's default network, address and tag alike", async () => {
    const client = await fundedUser()
    const withdraw = { coin: 'usdt', amount: '100', address: TRON, pwd: 'fund-pass' }
    const refusals = await Promise.all([
      client.refused('withdrawSubmit', { query: { ...withdraw, address: ETHEREUM } }),
      client.refused('withdrawSubmit', { query: { ...withdraw, address: 'AAAAAAAAAAAAAAAA' } }),
      client.refused('withdrawSubmit', {
        query: { ...withdraw, coin: 'xrp', amount: '50', address: RIPPLE },
      }),
    ])
    expect(refusals).toEqual(['addressNotForNetwork', 'addressNotForNetwork', 'memoRequired'])
    const sent = await client.ok('withdrawSubmit', { query: withdraw })
    expect(sent).toMatchObject({ chain: 'TRC20', address: TRON })
  })

  it('charges the fee by the shared formula the client quotes with', async () => {
    const client = await fundedUser()
    const { freeLeft } = await client.ok('withdrawStatus')
    const [channel] = await client.ok('getWithDrawCoinList')
    const amount = '123.456789'
    const request = await client.ok('withdrawSubmit', {
      query: { coin: 'usdt', chain: 'TRC20', amount, address: TRON, pwd: 'fund-pass' },
    })
    const coinList = await client.ok('getCoinList')
    const usdtPlaces = Math.max(...coinList.currencyList.map((pair) => pair.basePrecision))
    expect(request.fee).toBe(withdrawalFee(amount, channel!.ratio, freeLeft, usdtPlaces).toFixed())
    expect(request.fee).not.toBe('0')
  })

  it('names the network of every deposit and withdrawal, and the transaction once there is one', async () => {
    const client = await fundedUser()
    const deposits = (await client.ok('rechargeList', { query: { coin: 'usdt' } })).rows
    expect(deposits[0]).toMatchObject({ chain: 'TRC20', status: 'completed' })
    expect(deposits[0]!.txHash).toMatch(/^[0-9a-f]{64}$/)
    const xrp = (await client.ok('rechargeList', { query: { coin: 'xrp' } })).rows[0]
    expect(xrp?.chain).toBe('XRP')
    // two deposits are two transactions
    expect(xrp?.txHash).not.toBe(deposits[0]!.txHash)

    const reported = await client.ok('rechargeSubmit', {
      body: { coin: 'usdt', chain: 'TRC20', amount: '50', txHash: 'abc123def4567890' },
    })
    expect(reported).toMatchObject({ chain: 'TRC20', txHash: 'abc123def4567890', status: 'pending' })

    const withdrawal = await client.ok('withdrawSubmit', {
      query: { coin: 'usdt', chain: 'TRC20', amount: '100', address: TRON, pwd: 'fund-pass' },
    })
    expect(withdrawal.chain).toBe('TRC20')
    // nothing is on chain until the withdrawal is paid out
    expect(withdrawal.txHash).toBeUndefined()
    await client.control('/sandbox/withdraw/review', { id: withdrawal.id, approve: true })
    const paid = (await client.ok('withdrawList', { query: { coin: 'usdt' } })).rows[0]
    expect(paid).toMatchObject({ id: withdrawal.id, status: 'completed', chain: 'TRC20' })
    expect(paid?.txHash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('keeps an address book of its own: add with a label, list, refuse a duplicate, remove', async () => {
    const client = await registeredClient(sandbox)
    expect(await client.ok('addressBook')).toEqual([])
    const added = await client.ok('addressBookAdd', {
      body: { network: 'TRC20', address: TRON, label: 'Cold' },
    })
    expect(added).toMatchObject({ network: 'TRC20', address: TRON, memo: '', label: 'Cold' })
    await client.ok('addressBookAdd', {
      body: { network: 'XRP', address: RIPPLE, memo: '42', label: 'Desk' },
    })
    expect(
      await client.refused('addressBookAdd', { body: { network: 'TRC20', address: TRON, label: 'Again' } }),
    ).toBe('addressAlreadySaved')
    expect((await client.ok('addressBook')).map((entry) => entry.label)).toEqual(['Cold', 'Desk'])
    // another user sees none of them and cannot remove them
    const other = await registeredClient(sandbox)
    expect(await other.ok('addressBook')).toEqual([])
    expect(await other.refused('addressBookRemove', { query: { id: String(added.id) } })).toBe(
      'unknownAddress',
    )
    await client.ok('addressBookRemove', { query: { id: String(added.id) } })
    expect((await client.ok('addressBook')).map((entry) => entry.label)).toEqual(['Desk'])
  })

  it('refuses a transfer finer than its coin', async () => {
    const client = await fundedUser()
    const body = { coin: 'btc', from: 'platform', to: 'contract', amount: '0.000000001' }
    expect(await client.refused('transferFunds', { body })).toBe('coinPrecisionExceeded')
  })
})
