import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, type TestGateway } from '../helpers'
import { startEchoUpstream, type EchoUpstream } from '../support/echo-upstream'

// The upstream receives the bytes the client sent, never the gateway's own serialisation of them:
// a bare upstream records each request line and body exactly as they arrive.

let echo: EchoUpstream
let gateway: TestGateway

/** The calls under test that reached the upstream: the coin-list read also knocks there. */
const seen = () => echo.requests.filter((request) => !request.url.startsWith(CALLS.getCoinList.path))

beforeAll(async () => {
  echo = await startEchoUpstream()
  gateway = await startTestGateway({ UPSTREAM_URL: echo.url, REDIS_URL: '' })
})
afterAll(async () => {
  await gateway?.close()
  await echo?.close()
})
beforeEach(() => echo.clear())

const post = (url: string, payload: string | Buffer, contentType: string) =>
  gateway.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } })

describe('byte-exact forwarding', () => {
  it('sends a JSON body byte for byte: the digits, spacing and key order the client wrote', async () => {
    // within USDT's places (the default 8: this upstream lists no coins), and more digits than a float
    // keeps (it reads 123456789012.12346)
    const body = '{ "amount" : 123456789012.12345678,\n  "coin":"usdt","from":"platform","to":"contract" }'
    const response = await post(CALLS.transferFunds.path, body, 'application/json; charset=utf-8')
    expect(response.statusCode).toBe(200)
    expect(seen()).toHaveLength(1)
    expect(seen()[0]!.body.equals(Buffer.from(body))).toBe(true)
    expect(seen()[0]!.headers['content-type']).toBe('application/json')
  })

  it('sends escapes and non-ASCII text as written, not as the parser decoded them', async () => {
    const body = '{"username":"caf\\u00e9 \u00e9t\u00e9","password":"secret12"}'
    const response = await post(CALLS.login.path, body, 'application/json')
    expect(response.statusCode).toBe(200)
    expect(seen()[0]!.body.equals(Buffer.from(body))).toBe(true)
  })

  it('sends a form body byte for byte', async () => {
    const body = 'to=contract&amount=123456789012.12345678&coin=usdt&from=platform'
    const response = await post(CALLS.transferFunds.path, body, 'application/x-www-form-urlencoded')
    expect(response.statusCode).toBe(200)
    expect(seen()[0]!.body.toString()).toBe(body)
    expect(seen()[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded')
  })

  it('sends the query string as the client wrote it: order, digits and escapes', async () => {
    const query = 'pwd=secret12&amount=20.00000001&coin=usdt&address=TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'
    const response = await gateway.app.inject({
      method: 'POST',
      url: `${CALLS.withdrawSubmit.path}?${query}`,
    })
    expect(response.statusCode).toBe(200)
    // the withdrawal, beside the settings read its default network may take
    const forwarded = seen().filter((request) => request.url.startsWith(CALLS.withdrawSubmit.path))
    expect(forwarded.map((request) => request.url)).toEqual([`${CALLS.withdrawSubmit.path}?${query}`])
  })

  it('refuses a body naming a key twice, which the upstream might read the other way', async () => {
    const body = '{"coin":"usdt","from":"platform","to":"contract","amount":"1","amount":"2"}'
    const response = await post(CALLS.transferFunds.path, body, 'application/json')
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body' })
    expect(seen()).toHaveLength(0)
  })

  it('refuses body bytes that are not UTF-8, since the text checked would not be the text sent', async () => {
    const body = Buffer.concat([
      Buffer.from('{"username":"ab'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","password":"secret12"}'),
    ])
    const response = await post(CALLS.login.path, body, 'application/json')
    expect(response.statusCode).toBe(400)
    expect(seen()).toHaveLength(0)
  })
})
