import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CALLS,
  CALL_NAMES,
  KLINE_INTERVALS,
  LIMITS,
  TOKEN_EXPIRED_CODE,
  TOKEN_EXPIRED_MESSAGE,
  isTokenExpired,
  networkRule,
  toDecimal,
} from '@tradegate/shared'
import type { Sandbox } from '../app'
import {
  Client,
  eventually,
  registeredClient,
  startTestSandbox,
  uniqueName,
  withFundPassword,
} from './helpers'

// Every call of the table, its refusals, and the control calls; once they have run, each call must have been served.

const DAY_MS = 86_400_000
const ADDRESS = 'TXYZabcdefghijkmnopqrstuvwxyz12345'

describe('every call of the table', () => {
  let sandbox: Sandbox
  let clockOffset = 0
  let anonymous: Client

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock: () => Date.now() + clockOffset })
    anonymous = new Client(sandbox.url)
  })
  // once every test has run, in whatever order: each call of the table was served at least once
  afterAll(async () => {
    try {
      const counts = await new Client(sandbox.url).control<Record<string, number>>(
        '/sandbox/calls',
        undefined,
        'GET',
      )
      expect(CALL_NAMES.filter((name) => !counts[CALLS[name].path])).toEqual([])
    } finally {
      await sandbox.close()
    }
  })

  const funded = async (amount = '5000') => {
    const client = await registeredClient(sandbox)
    const { userId } = await client.ok('userInfo')
    await client.control('/sandbox/deposit', { userId, coin: 'usdt', amount })
    return { client, userId }
  }
  const usdt = async (client: Client, account = 'platform') =>
    (await client.ok('assetBalance')).find((row) => row.account === account && row.coin === 'usdt')!

  it('registers by each allowed method and refuses what the settings forbid', async () => {
    const phone = `138${String(Date.now()).slice(-8)}`
    const wallet = `0x${'ab12'.repeat(10)}`
    for (const [type, username] of [
      ['phone', phone],
      ['account', uniqueName('acct')],
      ['address', wallet],
    ] as const) {
      const session = await anonymous.ok('register', {
        body: { type, username, password: 'secret-pass', inviteCode: sandbox.inviteCode },
      })
      expect(session.credit).toBe('80')
    }
    expect(
      await anonymous.refused('register', {
        body: { type: 'account', username: uniqueName(), password: 'secret-pass' },
      }),
    ).toBe('inviteCodeRequired')
    expect(
      await anonymous.refused('register', {
        body: { type: 'account', username: uniqueName(), password: 'secret-pass', inviteCode: 'NOPE1234' },
      }),
    ).toBe('unknownInviteCode')
    const email = `${uniqueName('mail')}@example.com`
    expect(
      await anonymous.refused('register', {
        body: {
          type: 'email',
          username: email,
          password: 'secret-pass',
          code: '123456',
          inviteCode: sandbox.inviteCode,
        },
      }),
    ).toBe('codeExpired')
    expect(
      await anonymous.refused('register', {
        body: { type: 'account', username: phone, password: 'secret-pass', inviteCode: sandbox.inviteCode },
      }),
    ).toBe('invalidUsernameFor_account')
    await anonymous.control('/sandbox/settings', { REGISTER_SETTING: { address: false } })
    expect(
      await anonymous.refused('register', {
        body: {
          type: 'address',
          username: `0x${'cd34'.repeat(10)}`,
          password: 'secret-pass',
          inviteCode: sandbox.inviteCode,
        },
      }),
    ).toBe('registrationMethodClosed')
    await anonymous.control('/sandbox/settings', { REGISTER_SETTING: { address: true } })
    expect(await anonymous.refused('login', { body: { username: phone, password: 'wrong-pass' } })).toBe(
      'wrongCredentials',
    )
    const session = await anonymous.ok('login', { body: { username: phone, password: 'secret-pass' } })
    const resumed = await anonymous.ok('autoLogin', { body: { loginKey: session.loginKey } })
    expect(resumed.userId).toBe(session.userId)
    expect(resumed.satoken).not.toBe(session.satoken)
    expect(await anonymous.refused('autoLogin', { body: { loginKey: 'x'.repeat(40) } })).toBe(
      'invalidLoginKey',
    )
  })

  it('changes and resets passwords, binds e-mail and phone, sets the fund password', async () => {
    const client = await registeredClient(sandbox)
    const { username } = await client.ok('userInfo')
    expect(
      await client.refused('updateUserLoginPwd', { query: { oldPwd: 'wrong-pass', newPwd: 'second-pass' } }),
    ).toBe('wrongPassword')
    // a new login password signs every session out, this one included
    await client.ok('updateUserLoginPwd', { query: { oldPwd: 'secret-pass', newPwd: 'second-pass' } })
    expect(isTokenExpired(await client.call('userInfo'))).toBe(true)
    client.token = (await anonymous.ok('login', { body: { username, password: 'second-pass' } })).satoken

    const email = `${uniqueName('bind')}@example.com`
    await anonymous.ok('sendEmailCode', { query: { codeType: 'bind', email } })
    expect(await client.refused('bindEmail', { query: { email, emailCode: '000000' } })).toBe('wrongCode')
    const { code } = await client.control<{ code: string }>(
      `/sandbox/last-code?to=${encodeURIComponent(email)}`,
      undefined,
      'GET',
    )
    await client.ok('bindEmail', { query: { email, emailCode: code } })
    expect((await client.ok('userInfo')).email).toBe(email)

    // forgotten password: a code to the bound e-mail sets a new one and signs every session out
    await anonymous.ok('sendEmailCode', { query: { codeType: 'reset', email } })
    const reset = await client.control<{ code: string }>(
      `/sandbox/last-code?to=${encodeURIComponent(email)}`,
      undefined,
      'GET',
    )
    await anonymous.ok('backPwd', { query: { email, newPwd: 'third-pass', emailCode: reset.code } })
    expect(isTokenExpired(await client.call('userInfo'))).toBe(true)
    expect(await anonymous.refused('login', { body: { username, password: 'second-pass' } })).toBe(
      'wrongCredentials',
    )
    client.token = (
      await anonymous.ok('login', { body: { username: email, password: 'third-pass' } })
    ).satoken

    const phone = `+8613${String(Date.now()).slice(-9)}`
    await anonymous.ok('sendMobileCode', { query: { codeType: 'bind', phone } })
    const phoneCode = await client.control<{ code: string }>(
      `/sandbox/last-code?to=${encodeURIComponent(phone)}`,
      undefined,
      'GET',
    )
    await client.ok('bindPhone', { query: { phone, code: phoneCode.code } })
    expect((await client.ok('userInfo')).phone).toBe(phone)
    await anonymous.ok('sendMobileCode', { query: { codeType: 'unbind', phone } })
    const unbind = await client.control<{ code: string }>(
      `/sandbox/last-code?to=${encodeURIComponent(phone)}`,
      undefined,
      'GET',
    )
    await client.ok('unBindPhone', { query: { code: unbind.code } })
    expect((await client.ok('userInfo')).phone).toBeUndefined()

    // the fund password asks for a code to the bound e-mail while the settings say so, set and change
    // alike; one never sent is refused as expired
    const fundCode = async () => {
      await anonymous.ok('sendEmailCode', { query: { codeType: 'fundPassword', email } })
      return (
        await client.control<{ code: string }>(
          `/sandbox/last-code?to=${encodeURIComponent(email)}`,
          undefined,
          'GET',
        )
      ).code
    }
    expect(await client.refused('tardPwdSet', { query: { pwd: 'fund-pass' } })).toBe('codeRequired')
    expect(await client.refused('tardPwdSet', { query: { pwd: 'fund-pass', code: '000000' } })).toBe(
      'codeExpired',
    )
    expect((await client.ok('getInfo')).user.hasFundPassword).toBe(false)
    await client.ok('tardPwdSet', { query: { pwd: 'fund-pass', code: await fundCode() } })
    expect(await client.refused('tardPwdSet', { query: { pwd: 'fund-pass2', code: await fundCode() } })).toBe(
      'fundPasswordAlreadySet',
    )
    expect(
      await client.refused('updatePwd', {
        query: { oldPwd: 'fund-pass', newPwd: 'fund-pass2', signType: 'fund' },
      }),
    ).toBe('codeRequired')
    expect(
      await client.refused('updatePwd', {
        query: { oldPwd: 'nope-pass', newPwd: 'fund-pass2', signType: 'fund', code: '000000' },
      }),
    ).toBe('wrongFundPassword')
    // so does a new fund password
    const otherDevice = (await anonymous.ok('login', { body: { username: email, password: 'third-pass' } }))
      .satoken
    await client.ok('updatePwd', {
      query: { oldPwd: 'fund-pass', newPwd: 'fund-pass2', signType: 'fund', code: await fundCode() },
    })
    expect(isTokenExpired(await client.call('userInfo'))).toBe(true)
    const other = new Client(sandbox.url)
    other.token = otherDevice
    expect(isTokenExpired(await other.call('userInfo'))).toBe(true)
    client.token = (
      await anonymous.ok('login', { body: { username: email, password: 'third-pass' } })
    ).satoken
    await client.ok('updatePwd', {
      query: { oldPwd: 'third-pass', newPwd: 'fourth-pass', signType: 'login' },
    })
    client.token = (
      await anonymous.ok('login', { body: { username: email, password: 'fourth-pass' } })
    ).satoken
    expect((await client.ok('getInfo')).user.hasFundPassword).toBe(true)
  })

  it('takes KYC applications with uploads and applies the review', async () => {
    const client = await registeredClient(sandbox)
    const { userId } = await client.ok('userInfo')
    const form = () => {
      const data = new FormData()
      data.append('front', new Blob([Buffer.from('fake image bytes')], { type: 'image/png' }), 'front.png')
      return data
    }
    const advanced = { level: 'advanced', realName: 'Ada Lovelace', idNumber: 'AB123456' }
    expect(await client.refused('uploadKYC', { query: advanced, form: form() })).toBe('primaryKycRequired')
    const primary = await client.ok('uploadKYC', {
      query: { ...advanced, level: 'primary', country: 'GB' },
      form: new FormData(),
    })
    expect(primary).toEqual({ kycStatus: 'pending', kycLevel: 0 })
    expect(
      await client.refused('uploadKYC', { query: { ...advanced, level: 'primary' }, form: new FormData() }),
    ).toBe('kycPending')
    await client.control('/sandbox/kyc/review', { userId, approve: true })
    expect(await client.ok('userInfo')).toMatchObject({ kycStatus: 'approved', kycLevel: 1 })
    expect(await client.refused('uploadKYC', { query: advanced, form: new FormData() })).toBe(
      'documentRequired',
    )
    const notImage = new FormData()
    notImage.append('front', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'front.pdf')
    expect(await client.refused('uploadKYC', { query: advanced, form: notImage })).toBe('documentNotImage')
    const largePhoto = new FormData()
    largePhoto.append('front', new Blob([Buffer.alloc(4 * 1024 * 1024)], { type: 'image/jpeg' }), 'big.jpg')
    await client.ok('uploadKYC', { query: advanced, form: largePhoto })
    await client.control('/sandbox/kyc/review', { userId, approve: false })
    expect(await client.ok('userInfo')).toMatchObject({ kycStatus: 'rejected', kycLevel: 1 })
    await client.ok('uploadKYC', { query: advanced, form: form() })
    await client.control('/sandbox/kyc/review', { userId, approve: false })
    expect(await client.ok('userInfo')).toMatchObject({ kycStatus: 'rejected', kycLevel: 1 })

    const big = new FormData()
    big.append('file', new Blob([Buffer.alloc(LIMITS.uploadMaxBytes + 1)]), 'big.bin')
    expect(await client.refused('uploadOSS', { form: big })).toBe('fileTooLarge')
    const { url } = await client.ok('uploadOSS', { form: form() })
    const stored = await fetch(new URL(url, sandbox.url))
    expect(await stored.text()).toBe('fake image bytes')
  })

  it('serves the public market, content and settings calls', async () => {
    const settings = await anonymous.ok('getAllSetting')
    expect(settings.PLAYING_SETTING.every((tab) => tab.isOpen)).toBe(true)
    expect(settings.LOGIN_SETTING).toEqual({ email: true, phone: true, account: true, address: true })

    const coins = await anonymous.ok('getCoinList')
    expect(coins.coinList.length).toBeGreaterThanOrEqual(30)
    expect(coins.coinList.map((coin) => coin.coin)).toEqual(expect.arrayContaining(['btc', 'eth', 'trx']))
    expect(coins.coinList.find((coin) => coin.coin === 'xau')).toMatchObject({ coinType: 3, market: 'mt5' })
    expect(coins.contractList.find((pair) => pair.coin === 'btc')).toMatchObject({
      leverage: '5,10,20,50,100',
      openFee: '0.001',
    })
    expect(coins.currencyList.length).toBeGreaterThanOrEqual(30)
    expect(coins.optionList.length).toBeGreaterThan(0)
    expect(toDecimal(await anonymous.ok('getMt5Amount', { query: { coin: 'xau' } })).greaterThan(0)).toBe(
      true,
    )
    expect(await anonymous.refused('getMt5Amount', { query: { coin: 'btc' } })).toBe('notAnMt5Coin')

    const symbols = await anonymous.ok('symbolList', { query: { isAsc: 'desc', orderByColumn: 'symbol' } })
    expect(symbols[0]!.symbol > symbols.at(-1)!.symbol).toBe(true)
    expect(await anonymous.refused('symbolList', { query: { orderByColumn: 'password' } })).toBe(
      'unknownColumn',
    )
    for (const interval of KLINE_INTERVALS) {
      const candles = await anonymous.ok('kline', { query: { symbol: 'ethusdt', interval, limit: '50' } })
      expect(candles).toHaveLength(50)
      expect(candles[1]!.time).toBeGreaterThan(candles[0]!.time)
    }
    expect(await anonymous.refused('kline', { query: { symbol: 'nosuchusdt', interval: '1min' } })).toBe(
      'unknownSymbol',
    )

    const price = await anonymous.ok('currencyPrice', { query: { currency: 'btc,usdt' } })
    // the market ticks every 50 ms, so by the time the answer is read the price may have moved a step
    const market = sandbox.state.market.price('btcusdt')
    expect(toDecimal(price.price).minus(market).abs().lessThan(market.times('0.005'))).toBe(true)
    expect((await anonymous.ok('exchangeList', { query: { pageSize: '100' } })).total).toBeGreaterThan(30)
    expect(
      (await anonymous.ok('noticeList', { query: { key: 'ROLL_NOTICE', modelKey: 'HOME' } })).length,
    ).toBe(2)
    expect((await anonymous.ok('optionRules', { query: { key: 'SECOND_RULE' } })).length).toBeGreaterThan(0)
    const help = await anonymous.ok('helpList')
    expect((await anonymous.ok('helpDetail', { query: { id: String(help[0]!.id) } })).title).toBe(
      help[0]!.title,
    )
    expect(await anonymous.refused('helpDetail', { query: { id: '999' } })).toBe('articleNotFound')
    expect((await anonymous.ok('getCountryCode')).length).toBeGreaterThan(5)
    const periods = await anonymous.ok('periodList', { body: {} })
    expect(new Set(periods.map((period) => period.symbol)).size).toBeGreaterThan(3)
    // the eight seeded traders, and any this file's other tests made one
    expect((await anonymous.ok('traderList', { query: {} })).total).toBeGreaterThanOrEqual(8)
    expect((await anonymous.ok('proxyProducts')).length).toBeGreaterThan(0)
    expect((await anonymous.ok('financeProducts')).length).toBeGreaterThan(0)
    expect((await anonymous.ok('getAppCurrencyList')).map((row) => row.coinName)).toContain('USDT-TRC20')
  })

  it('handles deposits, recharge requests and the withdrawal rules', async () => {
    const { client } = await funded('1000')
    expect((await client.ok('getWithDrawCoinList'))[0]).toMatchObject({
      ratio: '10',
      dayWithdrawalNum: 10,
      withdrawalMix: '20',
    })
    const payAddress = await client.ok('payAddress', { body: { coin: 'usdt', chain: 'TRC20' } })
    const addresses = await client.ok('rechargeAddress', { query: { coin: 'usdt' } })
    expect(addresses.usdt).toBe(payAddress.address)
    expect(await client.refused('payAddress', { body: { coin: 'doge' } })).toBe('unsupportedCoin')
    // no tag on a network whose addresses are each the user's own; XRP's shared address comes with one
    expect(payAddress.memo).toBeUndefined()
    const xrp = await client.ok('payAddress', { body: { coin: 'xrp', chain: 'XRP' } })
    expect(xrp.memo).toMatch(new RegExp(networkRule('XRP')!.memo!.pattern))
    expect((await client.ok('payAddress', { body: { coin: 'xrp', chain: 'XRP' } })).memo).toBe(xrp.memo)

    const recharge = await client.ok('rechargeSubmit', {
      body: { coin: 'usdt', amount: '50', chain: 'TRC20', txHash: 'abcdef123456' },
    })
    expect(recharge.status).toBe('pending')
    expect((await usdt(client)).available).toBe('1080')
    await client.control('/sandbox/recharge/review', { id: recharge.id, approve: true })
    expect((await usdt(client)).available).toBe('1130')
    expect((await client.ok('rechargeList', { query: { coin: 'usdt' } })).total).toBe(2)

    // the window is 11:00-23:00 in UTC+8: move the clock back to 03:00 there, later to 15:00
    const hongKongHour = new Date(Date.now() + 8 * 3600_000).getUTCHours()
    const backTo = (hour: number) => -((hongKongHour - hour + 24) % 24) * 3600_000 - 60_000
    clockOffset = backTo(3)
    expect((await client.ok('withdrawStatus')).open).toBe(false)
    const withdraw = { coin: 'usdt', amount: '100', address: ADDRESS, pwd: 'fund-pass' }
    expect(await client.refused('withdrawSubmit', { query: withdraw })).toBe('fundPasswordNotSet')
    await withFundPassword(client)
    expect(await client.refused('withdrawSubmit', { query: withdraw })).toBe('withdrawOutsideWindow')
    clockOffset = backTo(15)
    expect(await client.ok('withdrawStatus')).toMatchObject({
      open: true,
      usedToday: 0,
      dayCount: 10,
      freeLeft: 0,
    })
    expect(await client.refused('withdrawSubmit', { query: { ...withdraw, pwd: 'other-pass' } })).toBe(
      'wrongFundPassword',
    )
    expect(await client.refused('withdrawSubmit', { query: { ...withdraw, amount: '19.99' } })).toBe(
      'withdrawBelowMinimum',
    )
    expect(await client.refused('withdrawSubmit', { query: { ...withdraw, amount: '100001' } })).toBe(
      'withdrawAboveMaximum',
    )
    await client.ok('updateWithdrawAddress', { query: { type: 'TRC20', address: ADDRESS } })
    expect(
      await client.refused('updateWithdrawAddress', { query: { type: 'TRC20', address: ADDRESS } }),
    ).toBe('addressAlreadySaved')
    expect(await client.ok('withdrawAddress')).toEqual([
      { id: expect.any(Number), type: 'TRC20', address: ADDRESS },
    ])
    expect((await client.ok('userInfo')).withdrawAddress).toEqual({ address: ADDRESS, type: 'TRC20' })
    const request = await client.ok('withdrawSubmit', { query: withdraw })
    expect((await usdt(client)).frozen).toBe('100')
    expect((await client.ok('withdrawFreezeList')).map((row) => row.id)).toEqual([request.id])
    await client.control('/sandbox/withdraw/review', { id: request.id, approve: false })
    expect(await usdt(client)).toMatchObject({ available: '1130', frozen: '0' })
    expect((await client.ok('withdrawStatus')).usedToday).toBe(0)
    expect((await client.ok('withdrawList', { query: { coin: 'usdt' } })).rows[0]).toMatchObject({
      id: request.id,
      status: 'rejected',
    })
    expect((await client.ok('rechargeBonusList', { query: {} })).rows.map((row) => row.amount)).toEqual([
      '80',
    ])
    clockOffset = 0
  })

  it('runs finance and proxy products to maturity and pays their interest', async () => {
    const { client } = await funded('2000')
    const finance = await client.ok('financeSubscribe', { body: { productId: 1, amount: '1000' } })
    const proxy = await client.ok('proxySubscribe', { body: { productId: 11, amount: '100' } })
    expect(await client.refused('financeSubscribe', { body: { productId: 1, amount: '5' } })).toBe(
      'amountBelowMinimum',
    )
    expect((await client.ok('assetBalance')).find((row) => row.account === 'financial')).toMatchObject({
      frozen: '1100',
    })
    const { username } = await client.ok('userInfo')
    clockOffset = 16 * DAY_MS
    // sixteen days on, the old session has expired
    client.token = (await anonymous.ok('login', { body: { username, password: 'secret-pass' } })).satoken
    await eventually(async () =>
      (await client.ok('proxyRecords', { query: {} })).rows[0]?.status === 'finished' ? true : undefined,
    )
    const [financeRow] = (await client.ok('financeOrders', { query: {} })).rows
    expect(financeRow).toMatchObject({ id: finance.id, status: 'finished', earned: '7' })
    const [earning] = (await client.ok('proxyEarnings', { query: {} })).rows
    expect(earning).toMatchObject({ kind: 'proxy', amount: '103.75' })
    expect(proxy.status).toBe('running')
    expect((await usdt(client)).available).toBe(toDecimal(2080).plus(7).plus('3.75').toFixed())
    clockOffset = 0
  })

  it('trades spot limits, contract limits, margin, stop-loss/take-profit, liquidation and second contracts', async () => {
    const { client } = await funded('3000')
    await client.ok('transferFunds', {
      body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '500' },
    })
    await client.control('/sandbox/price', { symbol: 'ethusdt', price: '3000' })

    const spot = await client.ok('spotOrderSubmit', {
      body: { symbol: 'ethusdt', side: 'buy', type: 'limit', price: '2900', amount: '0.1' },
    })
    expect(spot.status).toBe('open')
    expect(
      (await client.ok('spotOrderList', { query: { status: 'open' } })).rows.map((row) => row.id),
    ).toEqual([spot.id])
    await client.control('/sandbox/price', { symbol: 'ethusdt', price: '2890' })
    const [filled] = (await client.ok('spotOrderList', { query: { status: 'filled' } })).rows
    // the price gapped through the limit: it fills at its limit, not at the gapped price
    expect(filled).toMatchObject({
      id: spot.id,
      price: '2900',
      filledPrice: '2900',
      filledAmount: '0.1',
      fee: '0.58',
    })
    const held = await usdt(client)
    const resting = await client.ok('spotOrderSubmit', {
      body: { symbol: 'ethusdt', side: 'buy', type: 'limit', price: '2800', amount: '0.1' },
    })
    expect(await client.ok('spotOrderCancel', { query: { id: String(resting.id) } })).toMatchObject({
      id: resting.id,
      status: 'cancelled',
    })
    expect(await usdt(client)).toEqual(held)
    expect(
      await client.refused('spotOrderSubmit', {
        body: { symbol: 'ethusdt', side: 'buy', type: 'market', amount: '0.001' },
      }),
    ).toBe('orderBelowMinimum')
    expect(
      await client.refused('spotOrderSubmit', {
        body: { symbol: 'ethusdt', side: 'buy', type: 'market', amount: '0.000001' },
      }),
    ).toBe('amountPrecisionExceeded')

    const limit = await client.ok('contractOrderSubmit', {
      body: { symbol: 'ethusdt', direction: 'long', type: 'limit', price: '2500', leverage: 20, shares: '5' },
    })
    expect(
      (await client.ok('contractOrderList', { query: { status: 'open' } })).map((row) => row.id),
    ).toEqual([limit.id])
    // amended in place: the same order, a new limit and size, the margin held for the new size
    expect(
      await client.ok('contractOrderAmend', { body: { id: limit.id, price: '2550', shares: '8' } }),
    ).toMatchObject({ id: limit.id, price: '2550', shares: '8', margin: '4', status: 'open' })
    expect(await usdt(client, 'contract')).toMatchObject({ frozen: '4.08' })
    expect(await client.ok('contractMarkInfo', { query: { symbol: 'ethusdt' } })).toMatchObject({
      symbol: 'ethusdt',
      maxLeverage: 100,
      fundingIntervalMs: 8 * 3600_000,
    })
    await client.ok('contractOrderCancel', { query: { id: String(limit.id) } })
    expect(await client.refused('contractOrderCancel', { query: { id: String(limit.id) } })).toBe(
      'orderNotOpen',
    )
    expect(await usdt(client, 'contract')).toMatchObject({ available: '500', frozen: '0' })
    expect(
      await client.refused('contractOrderSubmit', {
        body: { symbol: 'ethusdt', direction: 'long', type: 'market', leverage: 150, shares: '5' },
      }),
    ).toBe('leverageNotAllowed')

    // a long with take-profit: the price rises through it and the position closes by itself
    await client.ok('contractOrderSubmit', {
      body: { symbol: 'ethusdt', direction: 'long', type: 'market', leverage: 10, shares: '10' },
    })
    const [position] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    const adjusted = await client.ok('positionAdjustMargin', {
      query: { id: String(position!.id), money: '5', flag: '1' },
    })
    expect(adjusted.margin).toBe('15')
    expect(
      await client.refused('positionAdjustMargin', {
        query: { id: String(position!.id), money: '14.5', flag: '0' },
      }),
    ).toBe('marginTooLow')
    await client.ok('positionAdjustMargin', { query: { id: String(position!.id), money: '5', flag: '0' } })
    const open = toDecimal(position!.openPrice)
    expect(
      await client.refused('lossSet', {
        body: { positionId: position!.id, stopLoss: open.times(2).toFixed(2) },
      }),
    ).toBe('stopLossMustBeBelowPrice')
    const first = await client.ok('lossSet', {
      body: { positionId: position!.id, stopLoss: open.times('0.5').toFixed(2) },
    })
    await client.ok('lossCancel', { query: { id: String(first.id) } })
    const takeProfit = await client.ok('lossSet', {
      body: {
        positionId: position!.id,
        takeProfit: open.times('1.1').toFixed(2),
        stopLoss: open.times('0.9').toFixed(2),
      },
    })
    expect((await client.ok('lossList')).map((row) => [row.id, row.status])).toEqual([
      [takeProfit.id, 'active'],
      [first.id, 'cancelled'],
    ])
    // the market stays over the take-profit until the mark reaches it
    await eventually(async () => {
      await client.control('/sandbox/price', { symbol: 'ethusdt', price: open.times('1.12').toFixed(2) })
      return (await client.ok('lossList'))[0]!.status === 'triggered' || undefined
    }, 20_000)
    const [tookProfit] = (await client.ok('positionList', { query: { status: 'closed' } })).rows
    expect(toDecimal(tookProfit!.pnl).greaterThan(11)).toBe(true)

    // a 100x short liquidates when the price rises 1 %
    await client.ok('contractOrderSubmit', {
      body: { symbol: 'ethusdt', direction: 'short', type: 'market', leverage: 100, shares: '10' },
    })
    const [short] = (await client.ok('positionList', { query: { status: 'open' } })).rows
    expect(toDecimal(short!.liquidationPrice).toFixed(2)).toBe(
      toDecimal(short!.openPrice).times('1.01').toFixed(2),
    )
    // the market stays 2 % up until the mark follows it there
    await eventually(async () => {
      await client.control('/sandbox/price', {
        symbol: 'ethusdt',
        price: toDecimal(short!.openPrice).times('1.02').toFixed(2),
      })
      return (await client.ok('positionList', { query: { status: 'open' } })).rows.length === 0 || undefined
    }, 20_000)
    const [liquidated] = (await client.ok('positionList', { query: { status: 'liquidated' } })).rows
    expect(liquidated).toMatchObject({ id: short!.id, pnl: '-1' })
    expect(await client.refused('positionStop', { query: { id: String(short!.id) } })).toBe('positionNotOpen')

    // a second contract that loses: the stake goes, nothing else
    const [period] = await client.ok('periodList', { body: { symbol: 'ethusdt' } })
    const before = toDecimal((await usdt(client)).available)
    const bet = await client.ok('secondOrderCreate', {
      body: { symbol: 'ethusdt', periodId: period!.id, direction: 'up', amount: '10' },
    })
    await client.control('/sandbox/price', {
      symbol: 'ethusdt',
      price: toDecimal(bet.openPrice).times('0.95').toFixed(2),
    })
    const lost = await eventually(async () => {
      const { rows } = await client.ok('secondOrderList', { body: { status: 'lose' } })
      return rows[0]
    })
    expect(lost).toMatchObject({ id: bet.id, profit: '-10' })
    expect((await usdt(client)).available).toBe(before.minus(10).toFixed())
    expect(
      await client.refused('secondOrderCreate', {
        body: { symbol: 'btcusdt', periodId: period!.id, direction: 'up', amount: '10' },
      }),
    ).toBe('periodNotForSymbol')
    expect((await client.ok('getProfit')).total).not.toBe('0')
    expect(
      (await client.ok('currencyRecords', { query: { symbol: 'ethusdt' } })).rows.map((row) => row.id),
    ).toEqual([spot.id])
    // the cancelled limit, the two opening orders, and the take-profit and liquidation that closed them
    const trading = await client.ok('tradingRecords', { query: {} })
    expect(trading.rows.map((row) => row.closeReason ?? row.status)).toEqual([
      'liquidation',
      'filled',
      'takeProfit',
      'filled',
      'cancelled',
    ])
    expect(
      (await client.ok('secondRecords', { query: { symbol: 'ethusdt' } })).rows.map((row) => row.id),
    ).toEqual([bet.id])
  })

  it('follows traders, applies as one, and pays the profit share', async () => {
    const { client } = await funded('3000')
    const { client: follower } = await funded('1000')
    const trader = await client.ok('traderApply', { body: { nickname: uniqueName('lead'), amount: '1000' } })
    expect(
      await client.refused('traderApply', { body: { nickname: uniqueName('lead'), amount: '1000' } }),
    ).toBe('alreadyATrader')
    await client.control('/sandbox/price', { symbol: 'btcusdt', price: '50000' })
    const follow = await follower.ok('followStart', { body: { traderId: trader.id, amount: '500' } })
    expect(await follower.refused('followStart', { body: { traderId: trader.id, amount: '500' } })).toBe(
      'alreadyFollowing',
    )
    await client.control('/sandbox/price', { symbol: 'btcusdt', price: '55000' })
    const stopped = await follower.ok('followStop', { query: { id: String(follow.id) } })
    const gross = toDecimal(500)
      .times(toDecimal(sandbox.state.market.price('btcusdt')).minus(50000))
      .dividedBy(50000)
    // the market ticks every 50 ms, so the price read here may be a few steps from the one settled
    expect(toDecimal(stopped.profit).minus(gross.times('0.8')).abs().lessThan('0.5')).toBe(true)
    expect((await follower.ok('followMine'))[0]).toMatchObject({ id: follow.id, status: 'stopped' })
    const [share] = (await client.ok('brokerRecords', { query: {} })).rows
    // the follower keeps 80 % of the gross profit, the trader gets 20 %: a quarter of what was kept
    expect(
      toDecimal(share!.amount).minus(toDecimal(stopped.profit).dividedBy(4)).abs().lessThan('0.0001'),
    ).toBe(true)
  })

  it('keeps a watchlist, invitations, welfare tasks and messages', async () => {
    const client = await registeredClient(sandbox)
    const added = await client.ok('watchlistAdd', { body: { symbol: 'btcusdt' } })
    expect(await client.refused('watchlistAdd', { body: { symbol: 'btcusdt' } })).toBe('alreadyInWatchlist')
    expect((await client.ok('watchlist')).map((row) => row.symbol)).toEqual(['btcusdt'])
    await client.ok('watchlistRemove', { params: { id: added.id } })
    expect(await client.ok('watchlist')).toEqual([])
    expect(await client.refused('watchlistRemove', { params: { id: added.id } })).toBe('notInWatchlist')

    const { inviteCode } = await client.ok('inviteInfo')
    const friend = new Client(sandbox.url)
    await friend.ok('register', {
      body: { type: 'account', username: uniqueName('friend'), password: 'secret-pass', inviteCode },
    })
    expect((await client.ok('inviteInfo')).teamSize).toBe(1)
    expect((await client.ok('inviteTeam', { query: {} })).rows).toHaveLength(1)

    const tasks = await client.ok('welfareTasks')
    expect(tasks.map((task) => task.status)).toEqual(['claimable', 'todo', 'todo', 'todo'])
    expect(await client.refused('welfareClaim', { query: { id: '2' } })).toBe('taskNotClaimable')
    expect((await client.ok('welfareClaim', { query: { id: '1' } })).status).toBe('claimed')
    expect((await usdt(client)).available).toBe('85')

    const [welcome] = (await client.ok('messageList', { query: {} })).rows
    expect(welcome!.read).toBe(false)
    expect((await client.ok('messageRead', { query: { id: String(welcome!.id) } })).read).toBe(true)
  })

  it('offers an option chain, buys from it, lists the position and sells it back (options.test.ts goes further)', async () => {
    const { client } = await funded()
    const chain = await anonymous.ok('optionChain', { query: { coin: 'eth' } })
    const [expiry] = chain.expiries
    const position = await client.ok('optionOrderSubmit', {
      body: {
        coin: 'eth',
        expiresAt: expiry!.expiresAt,
        strike: expiry!.strikes[4]!,
        kind: 'put',
        quantity: chain.lotSize,
        maxPremium: '100000',
      },
    })
    expect((await client.ok('optionPositions', { query: { status: 'open' } })).rows).toEqual([position])
    const sold = await client.ok('optionOrderSell', { body: { id: position.id, minPrice: '0' } })
    expect(sold).toMatchObject({ id: position.id, status: 'settled' })
    expect(toDecimal(sold.salePrice).greaterThan(0)).toBe(true)
  })

  it('answers a missing, logged-out or expired token with the token-expired envelope', async () => {
    const client = await registeredClient(sandbox)
    expect(await anonymous.call('assetBalance')).toEqual({
      code: TOKEN_EXPIRED_CODE,
      msg: TOKEN_EXPIRED_MESSAGE,
    })
    const { username } = await client.ok('userInfo')
    await client.control('/sandbox/expire', { username })
    expect(isTokenExpired(await client.call('getInfo'))).toBe(true)
    client.token = (await anonymous.ok('login', { body: { username, password: 'secret-pass' } })).satoken
    await client.ok('loginOut')
    expect(isTokenExpired(await client.call('userInfo'))).toBe(true)
  })

  it('changes no state when it refuses a request', async () => {
    const { client } = await funded('100')
    const snapshot = async () => ({
      balances: await client.ok('assetBalance'),
      records: await client.ok('financialRecords', { query: { pageSize: '100' } }),
      orders: await client.ok('spotOrderList', { query: {} }),
      positions: await client.ok('positionList', { query: {} }),
    })
    const before = await snapshot()
    const refusals: Array<[Parameters<Client['call']>[0], Parameters<Client['call']>[1]]> = [
      ['transferFunds', { body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '1000' } }],
      ['transferFunds', { body: { coin: 'usdt', from: 'platform', to: 'platform', amount: '1' } }],
      ['transferFunds', { body: { coin: 'usdt', from: 'platform', to: 'contract', amount: 'lots' } }],
      [
        'transferFunds',
        { body: { coin: 'usdt', from: 'platform', to: 'contract', amount: '1', extra: true } },
      ],
      ['spotOrderSubmit', { body: { symbol: 'btcusdt', side: 'buy', type: 'market', amount: '1' } }],
      ['spotOrderSubmit', { body: { symbol: 'btcusdt', side: 'buy', type: 'limit', amount: '0.001' } }],
      [
        'contractOrderSubmit',
        { body: { symbol: 'btcusdt', direction: 'long', type: 'market', leverage: 10, shares: '10' } },
      ],
      [
        'contractOrderSubmit',
        { body: { symbol: 'shibusdt', direction: 'long', type: 'market', leverage: 10, shares: '1' } },
      ],
      ['secondOrderCreate', { body: { symbol: 'btcusdt', periodId: 1, direction: 'up', amount: '10' } }],
      ['currencyExchange', { body: { from: 'usdt', to: 'btc', amount: '100000' } }],
      ['currencyExchange', { body: { from: 'usdt', to: 'nope', amount: '1' } }],
      ['exchangeQuote', { query: { from: 'usdt', to: 'usdt' } }],
      ['financeSubscribe', { body: { productId: 99, amount: '10' } }],
      ['followStart', { body: { traderId: 1, amount: '1' } }],
      ['positionStop', { query: { id: '123456' } }],
      ['withdrawSubmit', { query: { coin: 'usdt', amount: '-5', address: ADDRESS, pwd: 'fund-pass' } }],
    ]
    for (const [name, input] of refusals) {
      const envelope = await client.call(name, input)
      expect(envelope.code, `${name} ${JSON.stringify(input)}`).toBe(-1)
      expect(envelope.msg.length).toBeGreaterThan(3)
    }
    // the message stays a key the client can translate; the failing field travels beside it
    expect(
      await client.call('transferFunds', {
        body: { coin: 'usdt', from: 'platform', to: 'contract', amount: 'lots' },
      }),
    ).toMatchObject({ msg: 'invalidParameter', detail: expect.stringMatching(/^body\.amount/) })
    const invalidJson = await fetch(`${sandbox.url}${CALLS.transferFunds.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', satoken: client.token! },
      body: '{"coin":',
    })
    expect(invalidJson.status).toBe(400)
    expect(await invalidJson.json()).toEqual({ code: -1, msg: 'invalidJson' })
    const after = await snapshot()
    expect(after).toEqual(before)
  })

  it('fails, hangs or answers 503 for the next N calls on request, and counts calls by path', async () => {
    const control = new Client(sandbox.url)
    const countOf = async (path: string) =>
      (await control.control<Record<string, number>>('/sandbox/calls', undefined, 'GET'))[path] ?? 0
    const path = CALLS.helpList.path
    const before = await countOf(path)
    await control.control('/sandbox/fail', { count: 2, mode: 'error', path })
    expect((await fetch(`${sandbox.url}${path}`)).status).toBe(500)
    expect((await fetch(`${sandbox.url}${CALLS.financeProducts.path}`)).status).toBe(200)
    expect((await fetch(`${sandbox.url}${path}`)).status).toBe(500)
    expect((await fetch(`${sandbox.url}${path}`)).status).toBe(200)
    await control.control('/sandbox/fail', { count: 1, mode: 'status503' })
    expect((await fetch(`${sandbox.url}${path}`)).status).toBe(503)
    await control.control('/sandbox/fail', { count: 1, mode: 'hang', path })
    const hung = await fetch(`${sandbox.url}${path}`, { signal: AbortSignal.timeout(300) }).catch(
      (error: Error) => error.name,
    )
    expect(hung).toBe('TimeoutError')
    expect(await countOf(path)).toBe(before + 5)
    await expect(control.control('/sandbox/fail', { count: 0, mode: 'error' })).rejects.toThrow(/400/)
  })

  it('keeps a withdrawal address book apart from withdrawals', async () => {
    const client = await registeredClient(sandbox)
    const entry = await client.ok('addressBookAdd', {
      body: { network: 'TRC20', address: ADDRESS, label: 'Main' },
    })
    expect(await client.ok('addressBook')).toEqual([entry])
    await client.ok('addressBookRemove', { query: { id: String(entry.id) } })
    expect(await client.ok('addressBook')).toEqual([])
  })

  it('redeems finance and proxy holdings early', async () => {
    const { client } = await funded('1000')
    const saving = await client.ok('financeSubscribe', { body: { productId: 1, amount: '10' } })
    expect(await client.ok('financeRedeem', { query: { id: String(saving.id) } })).toMatchObject({
      status: 'redeemed',
    })
    const desk = await client.ok('proxySubscribe', { body: { productId: 11, amount: '50' } })
    expect(await client.ok('proxyRedeem', { query: { id: String(desk.id) } })).toMatchObject({
      status: 'redeeming',
    })
  })

  it('lists a credited deposit among the user notices, and nothing after it', async () => {
    const { client } = await funded('120')
    const notices = await client.ok('userNotices', { query: { since: '0' } })
    expect(notices.map((notice) => notice.kind)).toEqual(['deposit'])
    const [deposit] = notices
    expect(await client.ok('userNotices', { query: { since: String(deposit!.at + 1) } })).toEqual([])
  })

  it('counts the calls it served, and forgets them when told', async () => {
    // a sandbox of its own: the counts of this file's sandbox are read once every test has run
    const own = await startTestSandbox()
    try {
      const control = new Client(own.url)
      await control.ok('getAllSetting')
      const counts = await control.control<Record<string, number>>('/sandbox/calls', undefined, 'GET')
      expect(counts).toEqual({ [CALLS.getAllSetting.path]: 1 })
      await control.control('/sandbox/calls/reset')
      expect(await control.control('/sandbox/calls', undefined, 'GET')).toEqual({})
    } finally {
      await own.close()
    }
  })
})
