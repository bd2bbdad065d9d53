import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from '../helpers'

// Requests Node's HTTP parser refuses before Fastify routes them, sent byte for byte over a socket.

let upstream: TestUpstream
let gateway: TestGateway
let port: number

beforeAll(async () => {
  upstream = await startUpstream()
  gateway = await startTestGateway({
    UPSTREAM_URL: upstream.url,
    REDIS_URL: '',
    HEADER_LIMIT_BYTES: 4096,
    HEADERS_TIMEOUT_MS: 300,
  })
  await gateway.app.listen({ port: 0, host: '127.0.0.1' })
  port = (gateway.app.server.address() as AddressInfo).port
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

interface RawAnswer {
  status: number
  headers: string
  body: string
}

/** Writes the bytes (all at once, or the head alone when `hold` is set) and reads until the server closes. */
function sendRaw(bytes: Buffer | string, hold = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes)
      if (!hold) socket.end()
    })
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n')
      resolve({ status: Number(head.split(' ')[1]), headers: head, body })
    })
  })
}

describe('client errors answered by the gateway', () => {
  it('answers raw Chinese bytes in the URL with 400 cannotInputChinese and calls no upstream', async () => {
    await upstream.resetCalls()
    const answer = await sendRaw(
      Buffer.from('GET /api/market/kline?symbol=中&interval=1min HTTP/1.1\r\nHost: x\r\n\r\n'),
    )
    expect(answer.status).toBe(400)
    expect(answer.headers).toMatch(/content-type: application\/json/i)
    expect(JSON.parse(answer.body)).toEqual({ code: 400, msg: 'cannotInputChinese', detail: 'url' })
    expect(await upstream.totalCalls()).toBe(0)
    const metrics = await gateway.app.inject({ url: '/metrics' })
    expect(metrics.body).toMatch(/gateway_rejected_requests_total\{reason="chinese"[^}]*\} [1-9]/)
  })

  it('answers raw ㊀ (Han once normalised) in the URL with cannotInputChinese too', async () => {
    const answer = await sendRaw(Buffer.from('GET /api/common/getCoinList?x=㊀ HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(JSON.parse(answer.body)).toMatchObject({ code: 400, msg: 'cannotInputChinese' })
  })

  it('answers other raw non-ASCII in the URL with 400 badRequest in the same shape', async () => {
    const answer = await sendRaw(Buffer.from('GET /api/common/getCoinList?x=é HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toEqual({ code: 400, msg: 'badRequest', detail: 'url' })
  })

  it('answers a malformed request line with 400 badRequest', async () => {
    const answer = await sendRaw('NOT A REQUEST\r\n\r\n')
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 400, msg: 'badRequest' })
  })

  it('answers a head over HEADER_LIMIT_BYTES with 431 in the same shape', async () => {
    const answer = await sendRaw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(8192)}\r\n\r\n`)
    expect(answer.status).toBe(431)
    expect(JSON.parse(answer.body)).toEqual({ code: 431, msg: 'badRequest', detail: 'headers' })
  })

  it('answers a head that never ends with 408 in the same shape', async () => {
    const answer = await sendRaw('GET /healthz HTTP/1.1\r\nHost: x\r\n', true)
    expect(answer.status).toBe(408)
    expect(JSON.parse(answer.body)).toEqual({ code: 408, msg: 'badRequest', detail: 'timeout' })
  })

  it('answers a CONNECT with 405 in the same shape, naming the methods it serves, and calls no upstream', async () => {
    await upstream.resetCalls()
    for (const target of ['example.com:443', `127.0.0.1:${port}`]) {
      const answer = await sendRaw(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`, true)
      expect(answer.status, target).toBe(405)
      expect(answer.headers, target).toMatch(/\r\nallow: GET, HEAD, POST\r\n/i)
      expect(answer.headers, target).toMatch(/content-type: application\/json/i)
      expect(JSON.parse(answer.body), target).toEqual({ code: 405, msg: 'badRequest', detail: 'method' })
    }
    expect(await upstream.totalCalls()).toBe(0)
  })
})
