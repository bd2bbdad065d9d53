import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import type { TSchema } from 'typebox'
import {
  CALLS,
  CALL_NAMES,
  JSON_BODY_LIMIT_BYTES,
  NO_BODY_LIMIT_BYTES,
  bodyLimitOf,
  lacksVerificationCode,
  callPath,
  type CallBody,
  type CallDefinition,
  type CallName,
  type CallData,
} from './calls'
import { DEFAULT_SETTINGS } from './constants'
import { isCode200, isSuccess, isTokenExpired } from './envelope'

// Section 7 of the specification, as method and path; tests are the one place a path is written again.
const SPECIFIED_CALLS = `
POST /api/user/register
POST /api/user/login
POST /api/user/loginOut
POST /api/user/updateUserLoginPwd
POST /api/user/backPwd
POST /api/user/sendEmailCode
POST /api/user/bindEmail
POST /api/user/getCountryCode
POST /api/user/sendMobileCode
POST /api/user/bindPhone
POST /api/user/unBindPhone
POST /api/user/tardPwdSet
POST /api/user/updatePwd
POST /api/user/uploadKYC
POST /api/user/getProfit
POST /api/user/updateWithdrawAddress
GET /api/user/withdrawAddress
GET /api/user/getInfo
GET /api/asset/assetBalance
POST /api/asset/transferFunds
POST /api/common/getAppCurrencyList
POST /api/common/getWithDrawCoinList
POST /api/common/upload/OSS
GET /api/common/getAllSetting
GET /api/common/getCoinList
GET /api/common/getMt5Amount
POST /api/recharge/payAddress
POST /api/recharge/submit
GET /api/recharge/list
GET /api/recharge/bonsList
GET /api/recharge/getAdress
POST /api/withdraw/freezeList
POST /api/withdraw/submit
GET /api/withdraw/list
POST /api/withdraw/getWithdrawStatus
GET /api/record/financial
GET /api/record/trading
GET /api/record/second
GET /api/record/currency
GET /api/record/broker
GET /api/symbolmanage/list
GET /api/texchange/getCurrencyPrice
POST /api/texchange/currencyExchange
GET /api/texchange/list
GET /api/notice/list
GET /api/option/rules/list
POST /api/currency/order/submit
GET /api/currency/order/orderList
POST /api/period/list
POST /api/secondContractOrder/createSecondContractOrder
POST /api/secondContractOrder/selectOrderList
POST /api/contract/order/submit
GET /api/contract/order/list
POST /api/contract/order/canCelOrder
GET /api/contract/position/list
POST /api/contract/position/stopOrder
POST /api/contract/position/adjustAmount
GET /api/contract/loss/list
POST /api/contract/loss/sett
POST /api/contract/loss/cancel
POST /api/userCoin/save
GET /api/userCoin/getUserCoin
POST /api/userCoin/remove/:id
`
  .trim()
  .split('\n')

const entries = CALL_NAMES.map((name) => ({ name, ...CALLS[name] }))
const key = (call: { method: string; path: string }) => `${call.method} ${call.path}`

describe('call table', () => {
  it('holds every call of the specification', () => {
    const served = new Set(entries.map(key))
    expect(SPECIFIED_CALLS.filter((call) => !served.has(call))).toEqual([])
  })

  it('marks every call the specification does not name as defined by us', () => {
    const specified = new Set(SPECIFIED_CALLS)
    const unmarked = entries.filter((call) => !specified.has(key(call)) && !('definedByUs' in call))
    expect(unmarked.map((call) => call.name)).toEqual([])
    const wronglyMarked = entries.filter((call) => specified.has(key(call)) && 'definedByUs' in call)
    expect(wronglyMarked.map((call) => call.name)).toEqual([])
  })

  it('defines the calls the specification leaves out: automatic sign-in, navigation user info, candles', () => {
    expect(CALLS.autoLogin.definedByUs).toBe(true)
    expect(CALLS.userInfo.definedByUs).toBe(true)
    expect(key(CALLS.kline)).toBe('GET /api/market/kline')
  })

  it('names the code field of every call the upstream checks a code on, and when it is needed', () => {
    const rules = Object.fromEntries(
      CALL_NAMES.flatMap((name) => {
        const rule = (CALLS[name] as CallDefinition).verificationCode
        return rule ? [[name, rule]] : []
      }),
    )
    expect(rules).toEqual({
      backPwd: { field: 'emailCode', when: 'always' },
      bindEmail: { field: 'emailCode', when: 'always' },
      bindPhone: { field: 'code', when: 'always' },
      unBindPhone: { field: 'code', when: 'always' },
      tardPwdSet: { field: 'code', when: 'withdrawPassword' },
      updatePwd: { field: 'code', when: 'withdrawPassword', onlyWhere: { field: 'signType', value: 'fund' } },
    })
    // each named field is one the call's query accepts
    for (const [name, rule] of Object.entries(rules))
      expect(
        Object.keys((CALLS[name as CallName] as CallDefinition).query?.properties ?? {}),
        name,
      ).toContain(rule.field)
  })

  it('asks for a fund-password code only while the settings do, and never for a login password change', () => {
    const rule = CALLS.updatePwd.verificationCode
    const asking = DEFAULT_SETTINGS.VERIFY_CODE_SETTING
    const quiet = { ...asking, withdrawPassword: false }
    const fund = { oldPwd: 'a-pass-1', newPwd: 'a-pass-2', signType: 'fund' }
    expect(lacksVerificationCode(rule, fund, asking)).toBe(true)
    expect(lacksVerificationCode(rule, { ...fund, code: '' }, asking)).toBe(true)
    expect(lacksVerificationCode(rule, fund, null)).toBe(true)
    expect(lacksVerificationCode(rule, { ...fund, code: '123456' }, asking)).toBe(false)
    expect(lacksVerificationCode(rule, fund, quiet)).toBe(false)
    expect(lacksVerificationCode(rule, { ...fund, signType: 'login' }, asking)).toBe(false)
  })

  it('says which calls end every session of their user, each one made with a session', () => {
    const ending = entries.flatMap((call) => ('endsSessions' in call ? [call] : []))
    for (const call of ending) expect(call.auth, call.name).toBe(true)
    expect(Object.fromEntries(ending.map((call) => [call.name, call.endsSessions]))).toEqual({
      loginOut: 'always',
      updateUserLoginPwd: 'onSuccess',
      updatePwd: 'onSuccess',
    })
  })

  it('never serves one method and path twice', () => {
    const keys = entries.map(key)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('caches only public reads', () => {
    for (const call of entries) {
      if (!('cache' in call)) continue
      expect(call.method, call.name).toBe('GET')
      expect(call.auth, call.name).toBe(false)
      expect(call.cache.freshMs).toBeGreaterThan(0)
      expect(call.cache.staleMs).toBeGreaterThanOrEqual(call.cache.freshMs)
    }
    expect(CALLS.getAllSetting.cache).toBeDefined()
    expect(CALLS.getCoinList.cache).toBeDefined()
    expect('cache' in CALLS.assetBalance).toBe(false)
  })

  it('validates bodies: accepts a good login, refuses unknown fields and bad types', () => {
    const good: CallBody<'login'> = { username: 'alice@example.com', password: 'secret123' }
    expect(Value.Check(CALLS.login.body, good)).toBe(true)
    expect(Value.Check(CALLS.login.body, { ...good, admin: true })).toBe(false)
    expect(Value.Check(CALLS.login.body, { username: 'a', password: 1 })).toBe(false)
    expect(
      Value.Check(CALLS.transferFunds.body, {
        coin: 'usdt',
        from: 'platform',
        to: 'contract',
        amount: '1.5',
      }),
    ).toBe(true)
    expect(
      Value.Check(CALLS.transferFunds.body, { coin: 'usdt', from: 'platform', to: 'x', amount: '1' }),
    ).toBe(false)
    expect(
      Value.Check(CALLS.transferFunds.body, { coin: 'usdt', from: 'platform', to: 'contract', amount: '-1' }),
    ).toBe(false)
  })

  it('validates query text: ids, money and intervals', () => {
    expect(Value.Check(CALLS.positionAdjustMargin.query, { id: '12', money: '10.5', flag: '1' })).toBe(true)
    expect(Value.Check(CALLS.positionAdjustMargin.query, { id: '12', money: '1e5', flag: '1' })).toBe(false)
    expect(Value.Check(CALLS.positionAdjustMargin.query, { id: '-1', money: '1', flag: '1' })).toBe(false)
    expect(Value.Check(CALLS.kline.query, { symbol: 'btcusdt', interval: '4hour', limit: '300' })).toBe(true)
    expect(Value.Check(CALLS.kline.query, { symbol: 'btcusdt', interval: '2min' })).toBe(false)
    expect(Value.Check(CALLS.kline.query, { symbol: 'btcusdt', interval: '1min', limit: '1001' })).toBe(false)
  })

  it('fills path parameters, encoded', () => {
    expect(callPath('watchlistRemove', { id: 7 })).toBe('/api/userCoin/remove/7')
    expect(callPath('watchlistRemove', { id: '../x' })).toBe('/api/userCoin/remove/..%2Fx')
    expect(() => callPath('watchlistRemove')).toThrow(/id/)
  })

  it('types response data from the table', () => {
    const data: CallData<'getMt5Amount'> = '1.5'
    expect(Value.Check(CALLS.getMt5Amount.data, data)).toBe(true)
  })
})

describe('response codes', () => {
  it.each([
    [{ code: 200, msg: 'ok' }, true, false, true],
    [{ code: '200', msg: 'ok' }, true, false, true],
    [{ code: 1, msg: 'ok' }, true, false, false],
    [{ code: -1, msg: 'insufficientBalance' }, false, false, false],
    [{ code: 0, msg: '' }, false, false, false],
    [{ code: '500', msg: 'Token expired, please sign in again' }, false, true, false],
    [{ code: 500, msg: 'Token invalid' }, false, true, false],
    [{ code: 'abc', msg: '' }, false, false, false],
  ])('%j: success %s, token expired %s, code 200 %s', (envelope, success, expired, ok200) => {
    expect(isSuccess(envelope)).toBe(success)
    expect(isTokenExpired(envelope)).toBe(expired)
    expect(isCode200(envelope)).toBe(ok200)
  })
})

/** Bytes of the longest JSON a schema accepts, every string character escaped as \\uXXXX (6 bytes). */
function longestJson(schema: TSchema): number {
  const node = schema as Record<string, unknown>
  if (Array.isArray(node.anyOf)) return Math.max(...(node.anyOf as TSchema[]).map(longestJson))
  if ('const' in node) return JSON.stringify(node.const).length
  if (node.type === 'number' || node.type === 'integer') return 32
  if (node.type === 'boolean') return 'false'.length
  if (node.type === 'string') {
    const repeat = [...String(node.pattern ?? '').matchAll(/\{\d+,(\d+)\}/g)].map((match) => Number(match[1]))
    const length = (node.maxLength as number | undefined) ?? Math.max(...repeat)
    expect(Number.isFinite(length), 'every body string has a bounded length').toBe(true)
    return length * 6 + 2
  }
  if (node.type === 'object') {
    const properties = Object.entries(node.properties as Record<string, TSchema>)
    return 2 + properties.reduce((sum, [key, value]) => sum + key.length + 4 + longestJson(value), 0)
  }
  throw new Error(`no size bound for schema ${JSON.stringify(node)}`)
}

describe('body limits', () => {
  it.each(CALL_NAMES.filter((name) => 'body' in CALLS[name]))(
    '%s: its longest valid body, fully escaped, fits its limit',
    (name) => {
      const definition = CALLS[name]
      const limit = bodyLimitOf(definition)
      expect(limit).toBe(JSON_BODY_LIMIT_BYTES)
      expect(longestJson((definition as { body: TSchema }).body)).toBeLessThanOrEqual(limit!)
    },
  )

  it('gives calls without a body the no-body limit and uploads the deployment upload limit', () => {
    expect(bodyLimitOf(CALLS.loginOut)).toBe(NO_BODY_LIMIT_BYTES)
    expect(bodyLimitOf(CALLS.getCoinList)).toBe(NO_BODY_LIMIT_BYTES)
    expect(bodyLimitOf(CALLS.uploadOSS)).toBeNull()
    expect(bodyLimitOf(CALLS.uploadKYC)).toBeNull()
  })
})
