import { beforeEach, describe, expect, it } from 'vitest'
import type { InjectOptions } from 'fastify'
import {
  CALLS,
  CALL_NAMES,
  amountFieldsOf,
  coinPrecisions,
  precisionOf,
  type AmountField,
  type CoinList,
  type CallName,
} from '@tradegate/shared'
import { useTestStack } from '../helpers'
import { VALID } from './valid-requests'

// The money rule on every call that carries an amount, against the real sandbox and its coin list:
// a refused amount is answered 400 invalidAmount naming the field, and nothing reaches the upstream.

const stack = useTestStack({ REDIS_URL: '' })
beforeEach(async () => {
  await stack.upstream.resetCalls()
})

/** The call with `field` set to `value`; for a JSON body, `value` is spliced in as raw JSON text. */
function requestWith(name: CallName, field: AmountField, value: string, asJsonNumber = false): InjectOptions {
  const valid = VALID[name]!
  if (field.part === 'query') {
    const query = new URLSearchParams({ ...(valid as Record<string, string>), [field.key]: value })
    return { method: 'POST', url: `${CALLS[name].path}?${query}` }
  }
  const { [field.key]: _replaced, ...rest } = valid
  const written = asJsonNumber ? value : JSON.stringify(value)
  const payload = `${JSON.stringify(rest).slice(0, -1)},"${field.key}":${written}}`
  return {
    method: 'POST',
    url: CALLS[name].path,
    payload,
    headers: { 'content-type': 'application/json', satoken: 'amount-test-token' },
  }
}

const AMOUNT_FIELDS = CALL_NAMES.flatMap((name) =>
  amountFieldsOf(CALLS[name]).map((field) => [`${name} ${field.part}.${field.key}`, name, field] as const),
)

describe('the money rule on every call with an amount', () => {
  it('has a valid request for every call the table marks', () => {
    for (const [, name] of AMOUNT_FIELDS) expect(VALID[name], name).toBeDefined()
  })

  it.each(AMOUNT_FIELDS)('%s passes a valid amount on to the upstream', async (_label, name, field) => {
    const response = await stack.gateway.app.inject(requestWith(name, field, '1'))
    expect(response.json().msg).not.toBe('invalidAmount')
    // the call itself; a withdrawal also reads the cached settings for its default network
    expect((await stack.upstream.calls())[CALLS[name].path]).toBe(1)
  })

  const refusedTexts = [
    '-1',
    '1e-7',
    '5e-324',
    '0.1234567890123456789',
    '1.000000000000000000000',
    '123456789012345678901',
    '1.2.3',
    '',
    ' 1',
  ]
  it.each(AMOUNT_FIELDS)(
    '%s refuses malformed and over-precise amount texts',
    async (_label, name, field) => {
      for (const text of [...refusedTexts, ...(field.rule.allowZero ? [] : ['0', '0.00'])]) {
        const response = await stack.gateway.app.inject(requestWith(name, field, text))
        expect(response.statusCode, text).toBe(400)
        expect(response.json(), text).toEqual({
          code: 400,
          msg: 'invalidAmount',
          detail: `${field.part}.${field.key}`,
        })
      }
      expect(await stack.upstream.totalCalls()).toBe(0)
    },
  )

  const bodyFields = AMOUNT_FIELDS.filter(([, , field]) => field.part === 'body')
  it.each(bodyFields)(
    '%s judges a JSON number by the digits written, not the float',
    async (_label, name, field) => {
      for (const written of [
        '5e-324',
        '1e-7',
        '1E2',
        '-1',
        '0.1234567890123456789',
        '1.0000000000000000000001',
      ]) {
        const response = await stack.gateway.app.inject(requestWith(name, field, written, true))
        expect(response.statusCode, written).toBe(400)
        expect(response.json().msg, written).toBe('invalidAmount')
      }
      expect(await stack.upstream.totalCalls()).toBe(0)
      // whole shares take no decimals; every other amount takes one
      const plainText = 'places' in field.rule.scale && field.rule.scale.places === 0 ? '12' : '12.5'
      const plain = await stack.gateway.app.inject(requestWith(name, field, plainText, true))
      expect(plain.json().msg).not.toBe('invalidAmount')
    },
  )
})

describe("the coin's own precision, from the cached coin list", () => {
  const post = (name: CallName, body: Record<string, unknown>) =>
    stack.gateway.app.inject({ method: 'POST', url: CALLS[name].path, payload: body })

  it('refuses a withdrawal with more places than the coin has: amount=20.000000000000000001', async () => {
    const query = new URLSearchParams({ ...(VALID.withdrawSubmit as Record<string, string>) })
    query.set('amount', '20.000000000000000001')
    const response = await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.withdrawSubmit.path}?${query}`,
    })
    expect(response.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: 'query.amount' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('refuses a transfer of 0.000000000000000001 USDT and takes 0.0001', async () => {
    const refused = await post('transferFunds', { ...VALID.transferFunds, amount: '0.000000000000000001' })
    expect(refused.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: 'body.amount' })
    const taken = await post('transferFunds', { ...VALID.transferFunds, amount: '0.0001' })
    expect(taken.json().msg).not.toBe('invalidAmount')
  })

  it("uses a spot pair's quantity and price places (btcusdt: 5 and 2)", async () => {
    const order = VALID.spotOrderSubmit!
    expect((await post('spotOrderSubmit', { ...order, amount: '0.123456' })).json().detail).toBe(
      'body.amount',
    )
    expect((await post('spotOrderSubmit', { ...order, price: '67250.123' })).json().detail).toBe('body.price')
    const taken = await post('spotOrderSubmit', { ...order, amount: '0.12345', price: '67250.12' })
    expect(taken.json().msg).not.toBe('invalidAmount')
  })

  it("gives a coin the list does not name the client's places for it (precisionOf)", async () => {
    const unknown = { ...VALID.transferFunds, coin: 'nosuchcoin' }
    const places = precisionOf(new Map(), 'nosuchcoin')
    const finest = `0.${'0'.repeat(places - 1)}1`
    expect((await post('transferFunds', { ...unknown, amount: finest })).json().msg).not.toBe('invalidAmount')
    expect(await stack.upstream.calls()).toEqual({ [CALLS.transferFunds.path]: 1 })
    const finer = await post('transferFunds', { ...unknown, amount: `0.${'0'.repeat(places)}1` })
    expect(finer.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: 'body.amount' })
    // the same amount as a JSON number, judged by its written digits
    const asNumber = await stack.gateway.app.inject({
      method: 'POST',
      url: CALLS.transferFunds.path,
      headers: { 'content-type': 'application/json' },
      payload: `{"coin":"nosuchcoin","from":"platform","to":"contract","amount":0.${'0'.repeat(places)}1}`,
    })
    expect(asNumber.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: 'body.amount' })
    expect(await stack.upstream.calls()).toEqual({ [CALLS.transferFunds.path]: 1 })
  })
})

describe('the scale each amount names, beyond a coin field', () => {
  const post = (name: CallName, body: Record<string, unknown>) =>
    stack.gateway.app.inject({
      method: 'POST',
      url: CALLS[name].path,
      payload: body,
      headers: { satoken: 'amount-test-token' },
    })
  const usdtPlaces = async () => {
    const list = (await stack.gateway.app.inject({ url: CALLS.getCoinList.path })).json().data as CoinList
    return precisionOf(coinPrecisions(list), 'usdt')
  }
  const digits = (places: number) => `1.${'1'.repeat(places)}`

  it.each([
    ['financeSubscribe', { productId: 1 }],
    ['proxySubscribe', { productId: 11 }],
    ['followStart', { traderId: 1 }],
    ['traderApply', { nickname: 'trader' }],
    ['secondOrderCreate', { symbol: 'btcusdt', periodId: 1, direction: 'up' }],
    ['optionOrderSubmit', { ...VALID.optionOrderSubmit, maxPremium: undefined }],
  ] as const)(
    '%s refuses 11-decimal USDT with 400 invalidAmount, nothing forwarded, and takes USDT places',
    async (name, rest) => {
      const places = await usdtPlaces()
      expect(places).toBeLessThan(11)
      await stack.upstream.resetCalls()
      const field = name === 'optionOrderSubmit' ? 'maxPremium' : 'amount'
      const refused = await post(name, { ...rest, [field]: '100.00000000001' })
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: `body.${field}` })
      const finer = await post(name, { ...rest, [field]: digits(places + 1) })
      expect(finer.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: `body.${field}` })
      // only the call itself is counted: the gateway may refresh its coin list meanwhile
      expect((await stack.upstream.calls())[CALLS[name].path]).toBeUndefined()
      const taken = await post(name, { ...rest, [field]: digits(places) })
      expect(taken.json().msg).not.toBe('invalidAmount')
      expect((await stack.upstream.calls())[CALLS[name].path]).toBe(1)
    },
  )

  it('counts contract shares whole, on the order and on a partial close', async () => {
    const order = await post('contractOrderSubmit', { ...VALID.contractOrderSubmit, shares: '1.5' })
    expect(order.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: 'body.shares' })
    const close = await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.positionStop.path}?id=1&shares=2.0`,
      headers: { satoken: 'amount-test-token' },
    })
    expect(close.json()).toEqual({ code: 400, msg: 'invalidAmount', detail: 'query.shares' })
    const calls = await stack.upstream.calls()
    expect([calls[CALLS.contractOrderSubmit.path], calls[CALLS.positionStop.path]]).toEqual([
      undefined,
      undefined,
    ])
  })
})
