import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { InjectOptions } from 'fastify'
import { CALLS, JSON_BODY_LIMIT_BYTES, callPath } from '@tradegate/shared'
import { useTestStack } from '../helpers'

// Only the table's calls are served, and nothing unchecked or oversized ever reaches upstream.

// uploads get a budget large enough for every upload this file sends
const stack = useTestStack({
  REDIS_URL: '',
  UPLOAD_RATE_PER_MINUTE: 1000,
  UPLOAD_RATE_PER_USER_PER_MINUTE: 1000,
})
// an upload's body is read only for a session the upstream knows
let uploadSession = ''
beforeAll(async () => {
  uploadSession = await stack.upstream.register(`routes${Date.now().toString(36)}`)
})
beforeEach(async () => {
  await stack.upstream.resetCalls()
})

const inject = (options: InjectOptions) => stack.gateway.app.inject(options)
const postLoginJson = (payload: string) =>
  inject({ method: 'POST', url: CALLS.login.path, payload, headers: { 'content-type': 'application/json' } })

function multipart(parts: Array<{ name: string; value: string; filename?: string; type?: string }>) {
  const boundary = '----gatewaytest'
  const body = parts
    .map(({ name, value, filename, type = 'image/png' }) => {
      const disposition = filename
        ? `form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}`
        : `form-data; name="${name}"`
      return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`
    })
    .join('')
  return {
    payload: Buffer.from(`${body}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, satoken: uploadSession },
  }
}

describe('routes from the call table', () => {
  it('forwards a valid call and passes the answer back unchanged', async () => {
    // a language of its own: the gateway reads the coin list for itself at start, under the default one
    const headers = { language: 'it' }
    const response = await inject({ url: CALLS.getCoinList.path, headers })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ code: 200 })
    expect(await stack.upstream.calls()).toEqual({ [CALLS.getCoinList.path]: 1 })
  })

  it.each([
    ['GET', '/api/not/a/call'],
    ['GET', '/api'],
    ['POST', '/api/user/login/extra'],
    ['GET', CALLS.login.path],
    ['GET', `${CALLS.getCoinList.path}/`],
    ['GET', '/sandbox/calls'],
    ['POST', '/api/sandbox/fail'],
  ])('%s %s is 404 notFound and never forwarded', async (method, url) => {
    const response = await inject({ method: method as 'GET' | 'POST', url })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ code: 404, msg: 'notFound' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it.each([CALLS.getAllSetting.path, `${CALLS.contractMarkInfo.path}?symbol=btcusdt`])(
    'HEAD %s, a method no call of the table has, is 404 and never forwarded',
    async (url) => {
      const response = await inject({ method: 'HEAD', url })
      expect(response.statusCode).toBe(404)
      expect(response.body).toBe('')
      expect(await stack.upstream.totalCalls()).toBe(0)
      // the same call as the table names it is served
      expect((await inject({ method: 'GET', url })).statusCode).toBe(200)
    },
  )

  it('fills path parameters and refuses ones that fail the schema', async () => {
    const ok = await inject({ method: 'POST', url: callPath('watchlistRemove', { id: 42 }) })
    expect(ok.statusCode).toBe(200)
    const bad = await inject({ method: 'POST', url: '/api/userCoin/remove/abc' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 400, msg: 'badRequest', detail: 'params.id' })
    expect(await stack.upstream.calls()).toEqual({ [CALLS.watchlistRemove.path]: 1 })
  })
})

function encodeTimes(text: string, times: number): string {
  let encoded = text
  for (let layer = 0; layer < times; layer++) encoded = encodeURIComponent(encoded)
  return encoded
}

/** The text as it reads inside a JSON string after `times` rounds of JSON escaping. */
function escapeTimes(text: string, times: number): string {
  let escaped = text
  for (let layer = 0; layer < times; layer++) escaped = JSON.stringify(escaped).slice(1, -1)
  return escaped
}

describe('Chinese-character rule', () => {
  const login = (payload: string, contentType = 'application/json') =>
    inject({ method: 'POST', url: CALLS.login.path, payload, headers: { 'content-type': contentType } })

  it.each([
    ['query value', () => inject({ url: '/api/market/kline?symbol=btcusdt&interval=1min&limit=中' })],
    ['query key', () => inject({ url: '/api/market/kline?symbol=btcusdt&interval=1min&名=1' })],
    ['percent-encoded query', () => inject({ url: '/api/market/kline?symbol=%E4%B8%AD&interval=1min' })],
    ['double-encoded query', () => inject({ url: '/api/market/kline?symbol=%25E4%25B8%25AD&interval=1min' })],
    ['query of a call without query', () => inject({ url: `${CALLS.getAllSetting.path}?x=%E4%B8%AD` })],
    ['body value', () => login('{"username":"用户","password":"secret12"}')],
    [
      'nested body value',
      () => login('{"username":"abc","password":"secret12","extra":{"deep":["ok","中"]}}'),
    ],
    ['body array', () => login('["中"]')],
    ['body key', () => login('{"username":"abc","password":"secret12","名字":"x"}')],
    ['JSON-escaped body', () => login('{"username":"\\u4e2d\\u6587","password":"secret12"}')],
    ['double JSON-escaped body', () => login('{"username":"\\\\u4e2d","password":"secret12"}')],
    ['percent-encoded body', () => login('{"username":"%E4%B8%AD","password":"secret12"}')],
    ['form body', () => login('username=%E4%B8%AD&password=secret12', 'application/x-www-form-urlencoded')],
    [
      'multipart field',
      () =>
        inject({
          method: 'POST',
          url: CALLS.uploadOSS.path,
          ...multipart([{ name: 'note', value: '中文' }]),
        }),
    ],
    [
      'multipart field name',
      () => inject({ method: 'POST', url: CALLS.uploadOSS.path, ...multipart([{ name: '名', value: 'x' }]) }),
    ],
    [
      'multipart escaped field',
      () =>
        inject({
          method: 'POST',
          url: CALLS.uploadOSS.path,
          ...multipart([{ name: 'n', value: '%E4%B8%AD' }]),
        }),
    ],
    [
      'body value with ㊀ (U+3280), Han once normalised',
      () => login('{"username":"a㊀b","password":"secret12"}'),
    ],
    ['body value with ㈠ (U+3220)', () => login('{"username":"a㈠b","password":"secret12"}')],
    ['body value with 🈯 (U+1F22F)', () => login('{"username":"a🈯b","password":"secret12"}')],
    [
      'query value with ㍻ (U+337B)',
      () => inject({ url: '/api/market/kline?symbol=%E3%8D%BB&interval=1min' }),
    ],
    ['JSON-escaped ㊀ in a body', () => login('{"username":"a\\u3280b","password":"secret12"}')],
    [
      'body value percent-encoded four times',
      () => login(`{"username":"${encodeTimes('中', 4)}","password":"secret12"}`),
    ],
    [
      'fullwidth percent escapes in a body',
      () => login('{"username":"％Ｅ４％Ｂ８％ＡＤ","password":"secret12"}'),
    ],
    ['path parameter', () => inject({ method: 'POST', url: '/api/userCoin/remove/%E4%B8%AD' })],
    [
      'multipart text/plain file part',
      () =>
        inject({
          method: 'POST',
          url: CALLS.uploadOSS.path,
          ...multipart([{ name: 'file', value: 'note: 中文', filename: 'note.txt', type: 'text/plain' }]),
        }),
    ],
    [
      'multipart escaped text file part',
      () =>
        inject({
          method: 'POST',
          url: CALLS.uploadOSS.path,
          ...multipart([{ name: 'file', value: '%E4%B8%AD', filename: 'a.csv', type: 'text/csv' }]),
        }),
    ],
    [
      'multipart file name',
      () =>
        inject({
          method: 'POST',
          url: CALLS.uploadOSS.path,
          ...multipart([{ name: 'file', value: 'PNGDATA', filename: '图片.png' }]),
        }),
    ],
  ])('%s gets 400 cannotInputChinese and reaches no upstream', async (_where, send) => {
    const response = await send()
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 400, msg: 'cannotInputChinese' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it.each([
    [
      'a JSON body value',
      () => login(`{"username":"${encodeTimes('abc%', 5)}","password":"secret12"}`),
      'body',
    ],
    [
      'a query value',
      () => inject({ url: `/api/market/kline?symbol=${encodeTimes('btc%', 5)}&interval=1min` }),
      'query',
    ],
    [
      'a form body value',
      () => login(`username=${encodeTimes('中', 6)}&password=secret12`, 'application/x-www-form-urlencoded'),
      'body',
    ],
    [
      'a body value under six levels of backslash escaping',
      () => login(`{"username":"${escapeTimes('\\u4e2d', 5)}","password":"secret12"}`),
      'body',
    ],
  ])('refuses %s still changing after four decodes with 400 badRequest', async (_where, send, detail) => {
    const response = await send()
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('leaves a binary file alone even when its bytes read as Chinese', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.uploadOSS.path,
      ...multipart([
        { name: 'file', value: '\u4e2d\u6587 PNG bytes', filename: 'photo.png', type: 'image/png' },
      ]),
    })
    expect(response.statusCode).toBe(200)
    expect(await stack.upstream.totalCalls()).toBe(1)
    expect((await stack.upstream.calls())[CALLS.uploadOSS.path]).toBe(1)
  })

  it('lets Japanese kana, Korean and fullwidth punctuation through the rule to the schema check', async () => {
    const response = await login('{"username":"かなカナ한국어！","password":"secret12"}')
    expect(response.statusCode).toBe(200)
  })

  it('counts each refusal once in gateway_rejected_requests_total{reason="chinese"}, and only those', async () => {
    const chineseRefusals = async () => {
      const metrics = await inject({ url: '/metrics' })
      const series = metrics.body.matchAll(
        /^gateway_rejected_requests_total\{reason="chinese"[^}]*\} (\d+)$/gm,
      )
      return [...series].reduce((sum, [, value]) => sum + Number(value), 0)
    }
    const before = await chineseRefusals()
    expect((await inject({ url: '/api/market/kline?symbol=中&interval=1min' })).statusCode).toBe(400)
    expect(await chineseRefusals()).toBe(before + 1)
    expect((await login('{"username":"a中b","password":"secret12"}')).statusCode).toBe(400)
    expect(await chineseRefusals()).toBe(before + 2)
    // a refusal for another reason leaves the count alone
    expect((await inject({ url: '/api/market/kline?symbol=btcusdt&interval=1min&debug=1' })).statusCode).toBe(
      400,
    )
    expect(await chineseRefusals()).toBe(before + 2)
  })
})

describe('schemas, body limits and poisoning', () => {
  it('answers the first invalid field', async () => {
    const response = await inject({ method: 'POST', url: CALLS.login.path, payload: { username: 'abc' } })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body.password' })
  })

  it('refuses an address of another network on the withdraw call and names it, sending nothing upstream', async () => {
    const withdraw = (chain: string, address: string, memo = '') =>
      inject({
        method: 'POST',
        url: `${CALLS.withdrawSubmit.path}?coin=usdt&amount=10&pwd=secret-pass&chain=${chain}&address=${address}${memo ? `&memo=${memo}` : ''}`,
      })
    const ethereum = `0x${'52908400098527886E0F7030069857D2E4169EE7'}`
    const refused = await withdraw('TRC20', ethereum)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'query.address' })
    const missingTag = await withdraw('XRP', 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh')
    expect(missingTag.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'query.memo' })
    // the withdrawal itself: the gateway may read its cached settings from the upstream meanwhile
    expect((await stack.upstream.calls())[CALLS.withdrawSubmit.path]).toBeUndefined()
    const passed = await withdraw('ERC20', ethereum)
    expect(passed.json()).not.toMatchObject({ msg: 'badRequest' })
    expect((await stack.upstream.calls())[CALLS.withdrawSubmit.path]).toBe(1)
  })

  it("holds a withdrawal without chain to the coin's default network, address and tag alike", async () => {
    const withdraw = (query: string) =>
      inject({ method: 'POST', url: `${CALLS.withdrawSubmit.path}?amount=25&pwd=secret-pass&${query}` })
    const ethereum = '0x52908400098527886E0F7030069857D2E4169EE7'
    const cases = [
      // usdt's default network in the settings is TRC20, btc's is BTC, xrp's is XRP and needs a tag
      [`coin=usdt&address=${ethereum}`, 'query.address'],
      ['coin=btc&address=TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 'query.address'],
      ['coin=usdt&address=AAAAAAAAAAAAAAAA', 'query.address'],
      ['coin=xrp&address=rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', 'query.memo'],
    ] as const
    for (const [query, detail] of cases) {
      const refused = await withdraw(query)
      expect(refused.statusCode, query).toBe(400)
      expect(refused.json(), query).toEqual({ code: 400, msg: 'badRequest', detail })
    }
    expect((await stack.upstream.calls())[CALLS.withdrawSubmit.path]).toBeUndefined()
    const passed = await withdraw('coin=usdt&address=TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE')
    expect(passed.json()).not.toMatchObject({ msg: 'badRequest' })
    const tagged = await withdraw('coin=xrp&address=rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh&memo=12345')
    expect(tagged.json()).not.toMatchObject({ msg: 'badRequest' })
    expect((await stack.upstream.calls())[CALLS.withdrawSubmit.path]).toBe(2)
  })

  it('checks a flash-exchange quote id and the quote call before anything reaches upstream', async () => {
    const exchange = (quoteId: string) =>
      inject({
        method: 'POST',
        url: CALLS.currencyExchange.path,
        payload: { from: 'usdt', to: 'btc', amount: '10', quoteId },
        headers: { satoken: 'test-session-token' },
      })
    const refused = await exchange('not a quote; drop')
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body.quoteId' })
    const badCoin = await inject({
      url: `${CALLS.exchangeQuote.path}?from=usdt&to=b%20c`,
      headers: { satoken: 'test-session-token' },
    })
    expect(badCoin.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'query.to' })
    expect(await stack.upstream.totalCalls()).toBe(0)
    const passed = await exchange('0123456789abcdef01234567')
    expect(passed.json()).not.toMatchObject({ msg: 'badRequest' })
    expect(await stack.upstream.totalCalls()).toBe(1)
  })

  it('refuses unknown query parameters of a call with a query schema', async () => {
    const response = await inject({ url: '/api/market/kline?symbol=btcusdt&interval=1min&debug=1' })
    expect(response.json()).toMatchObject({ code: 400, msg: 'badRequest', detail: 'query.debug' })
  })

  it('refuses repeated query parameters', async () => {
    const response = await inject({ url: '/api/market/kline?symbol=btcusdt&symbol=ethusdt&interval=1min' })
    expect(response.statusCode).toBe(400)
  })

  describe('percent escapes that are not UTF-8, refused alike in a query and a form body', () => {
    const form = (payload: string) =>
      inject({
        method: 'POST',
        url: CALLS.login.path,
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    const query = (text: string) => inject({ method: 'POST', url: `${CALLS.backPwd.path}?${text}` })

    it.each([
      [
        'GBK bytes in a value',
        'username=%D6%D0&password=secret12',
        'email=a%D6%D0@x.io&newPwd=secret12&emailCode=1234',
      ],
      [
        'a lone continuation byte',
        'username=a%80b&password=secret12',
        'email=a%80@x.io&newPwd=secret12&emailCode=1234',
      ],
      [
        'an escape that is no escape',
        'username=a%ZZ&password=secret12',
        'email=a%ZZ@x.io&newPwd=secret12&emailCode=1234',
      ],
      [
        'GBK bytes in a name',
        '%D6%D0=1&username=ab&password=secret12',
        'email=a@x.io&newPwd=secret12&emailCode=1234&%D6%D0=1',
      ],
    ])('%s: 400 badRequest and nothing forwarded', async (_kind, formText, queryText) => {
      const fromForm = await form(formText)
      expect(fromForm.statusCode).toBe(400)
      expect(fromForm.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body' })
      const fromQuery = await query(queryText)
      expect(fromQuery.statusCode).toBe(400)
      expect(fromQuery.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'query' })
      expect(await stack.upstream.totalCalls()).toBe(0)
    })

    it('still forwards UTF-8 escapes and plus signs in both, decoded the same way', async () => {
      const fromForm = await form('username=caf%C3%A9+au+lait&password=secret12')
      // the sandbox takes no forms and says so: what matters is that the gateway passed it on
      expect(fromForm.json()).not.toMatchObject({ msg: 'badRequest' })
      const valid = await query('email=a%2Bb@x.io&newPwd=secret+12&emailCode=1234')
      expect(valid.json()).toMatchObject({ msg: 'unknownEmail' })
      expect(await stack.upstream.calls()).toEqual({ [CALLS.login.path]: 1, [CALLS.backPwd.path]: 1 })
    })
  })

  it.each([
    ['__proto__', '{"__proto__":{"admin":true},"username":"abc","password":"secret12"}'],
    [
      'constructor.prototype',
      '{"constructor":{"prototype":{"admin":true}},"username":"abc","password":"secret12"}',
    ],
  ])('refuses %s poisoning with 400', async (_kind, payload) => {
    const response = await postLoginJson(payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 400, msg: 'badRequest' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('refuses bodies nested deeper than BODY_MAX_DEPTH', async () => {
    const payload = `{"username":"abc","password":"secret12","x":${'['.repeat(100)}${']'.repeat(100)}}`
    const response = await postLoginJson(payload)
    expect(response.statusCode).toBe(400)
  })

  it('refuses an unsupported content type with 415', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.login.path,
      payload: 'hi',
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.statusCode).toBe(415)
    expect(response.json()).toEqual({ code: 415, msg: 'unsupportedMediaType' })
  })

  it('answers a 10 MB JSON body with 413 and sends zero bytes upstream', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.login.path,
      payload: `{"username":"${'a'.repeat(10 * 1024 * 1024)}","password":"secret12"}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ code: 413, msg: 'payloadTooLarge' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('answers a 10 MB upload with 413 and sends zero bytes upstream', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.uploadOSS.path,
      ...multipart([{ name: 'file', value: 'x'.repeat(10 * 1024 * 1024), filename: 'big.png' }]),
    })
    expect(response.statusCode).toBe(413)
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('re-sends a checked upload upstream', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.uploadOSS.path,
      ...multipart([{ name: 'file', value: 'PNGDATA', filename: 'photo.png' }]),
    })
    expect(response.statusCode).toBe(200)
    expect(await stack.upstream.calls()).toEqual({ [CALLS.uploadOSS.path]: 1 })
  })

  it('refuses a malformed language header before it can pick a cached answer', async () => {
    const response = await inject({ url: CALLS.getCoinList.path, headers: { language: 'en"; drop' } })
    expect(response.json()).toMatchObject({ code: 400, msg: 'badRequest', detail: 'headers.language' })
  })
})

describe('bounded work per request', () => {
  const post = (url: string, payload: string, contentType = 'application/json') =>
    inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } })
  const manyKeys = (keys: number) =>
    `{"username":"abc","password":"secret12",${Array.from({ length: keys }, (_, index) => `"k${index}":1`).join(',')}}`
  const escapedStrings = (strings: number) =>
    `{"username":"abc","password":"secret12","x":[${Array.from({ length: strings }, () => '"\\\\u00e9%25%25ab"').join(',')}]}`

  it.each([
    ['0.87 MB of extra keys', manyKeys(80_000)],
    ['0.87 MB of escaped strings', escapedStrings(50_000)],
    [
      'a body one byte over the JSON limit',
      `{"username":"${'a'.repeat(JSON_BODY_LIMIT_BYTES)}","password":"secret12"}`,
    ],
  ])('answers %s with 413 before reading it, and nothing goes upstream', async (_kind, payload) => {
    const response = await post(CALLS.login.path, payload)
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ code: 413, msg: 'payloadTooLarge' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it.each([
    ['a JSON object', () => post(CALLS.loginOut.path, '{"all":true}')],
    ['an empty JSON object', () => post(CALLS.loginOut.path, '{}')],
    ['a form', () => post(CALLS.loginOut.path, 'all=1', 'application/x-www-form-urlencoded')],
    [
      'a body without a content type',
      () => inject({ method: 'POST', url: CALLS.loginOut.path, payload: 'x' }),
    ],
    [
      'a body of Chinese text',
      () => inject({ method: 'POST', url: CALLS.loginOut.path, payload: { a: '中' } }),
    ],
    ['a body far over any limit', () => post(CALLS.loginOut.path, `{"x":"${'x'.repeat(1_000_000)}"}`)],
    ['a GET with a body', () => inject({ method: 'GET', url: CALLS.getInfo.path, payload: '{"a":1}' })],
    [
      'a chunked body',
      () =>
        inject({
          method: 'POST',
          url: CALLS.loginOut.path,
          payload: '{"a":1}',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        }),
    ],
  ])(
    'refuses %s sent to a call that takes no body, unread and with nothing upstream',
    async (_kind, send) => {
      const response = await send()
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body' })
      expect(await stack.upstream.totalCalls()).toBe(0)
    },
  )

  it('still takes a call without a body sent none, or an empty one', async () => {
    expect((await inject({ method: 'POST', url: CALLS.loginOut.path })).statusCode).toBe(200)
    const empty = await inject({
      method: 'POST',
      url: CALLS.loginOut.path,
      headers: { 'content-type': 'application/json', 'content-length': '0' },
    })
    expect(empty.statusCode).toBe(200)
    expect(await stack.upstream.calls()).toEqual({ [CALLS.loginOut.path]: 2 })
  })

  it.each([
    ['65 keys in a body under the size limit', manyKeys(65)],
    ['65 array items', `{"username":"abc","password":"secret12","x":[${'1,'.repeat(64)}1]}`],
    ['escaped strings filling the size limit', escapedStrings(200)],
    ['65 form pairs', Array.from({ length: 65 }, (_, index) => `k${index}=1`).join('&')],
  ])('refuses %s with 400 badRequest before parsing it', async (kind, payload) => {
    const form = kind.includes('form')
    const response = await post(
      CALLS.login.path,
      payload,
      form ? 'application/x-www-form-urlencoded' : 'application/json',
    )
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 400, msg: 'badRequest' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('names the first unknown field of a body with many', async () => {
    const response = await post(CALLS.login.path, manyKeys(40))
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body.k0' })
  })

  it('refuses a text part larger than a text field with 413, as the rule would read all of it', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.uploadOSS.path,
      ...multipart([{ name: 'file', value: '%25'.repeat(10_000), filename: 'a.txt', type: 'text/plain' }]),
    })
    expect(response.statusCode).toBe(413)
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('still takes an upload far larger than a JSON body', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.uploadOSS.path,
      ...multipart([{ name: 'file', value: 'x'.repeat(1024 * 1024), filename: 'photo.png' }]),
    })
    expect(response.statusCode).toBe(200)
  })
})

describe('compressed answers', () => {
  const getCoinList = (acceptEncoding?: string) =>
    inject({
      url: CALLS.getCoinList.path,
      // a language of its own, so this test's first request stores the answer
      headers: {
        language: 'pl',
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
    })

  it('serves the cached coin list in brotli or gzip as the client accepts, and identity otherwise', async () => {
    const plain = await getCoinList()
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    expect(plain.headers['content-encoding']).toBeUndefined()

    const brotli = await getCoinList('gzip, deflate, br')
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers.vary).toMatch(/accept-encoding/i)
    expect(brotli.headers['x-cache']).not.toBe('miss')
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body)
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)

    const gzip = await getCoinList('gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body)

    expect((await getCoinList('identity')).headers['content-encoding']).toBeUndefined()
    expect((await getCoinList('br;q=0, gzip')).headers['content-encoding']).toBe('gzip')
  })

  it('compresses an uncached answer above 1 KiB and leaves small ones alone', async () => {
    const large = await inject({
      url: '/api/market/kline?symbol=btcusdt&interval=1min&limit=200',
      headers: { 'accept-encoding': 'br' },
    })
    expect(large.statusCode).toBe(200)
    expect(large.headers['content-encoding']).toBe('br')
    expect(JSON.parse(brotliDecompressSync(large.rawPayload).toString())).toMatchObject({ code: 200 })

    const small = await inject({ url: '/api/not/a/call', headers: { 'accept-encoding': 'br' } })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.json()).toEqual({ code: 404, msg: 'notFound' })
  })
})
