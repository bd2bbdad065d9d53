import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { io as connectSocketIo, type Socket } from 'socket.io-client'
import { startBareWsServer } from './bare-ws-server'
import { FRAME_EVENT, startSocketIoServer } from './socketio-server'
import { startNodeProxyServer } from './node-proxy-server'
import type { ServerFrame } from '../bench/scenario'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const frame = (symbol: string, close: string): ServerFrame => ({
  type: 'DETAIL',
  symbol,
  data: { open: close, close, high: close, low: close, vol: '0', amount: '0', change: '0.00' },
  ts: Date.now(),
})

const trade = (symbol: string, price: string): ServerFrame => ({
  type: 'TRADE',
  symbol,
  data: { price, qty: '1', side: 'buy', time: Date.now() },
  ts: Date.now(),
})

/** Collects text frames and lets a test wait for the n-th one. */
function inbox<T>(subscribe: (push: (item: T) => void) => void) {
  const items: T[] = []
  const waiters: Array<() => void> = []
  subscribe((item) => {
    items.push(item)
    for (const wake of waiters.splice(0)) wake()
  })
  return {
    items,
    async nth(n: number): Promise<T> {
      while (items.length < n) await new Promise<void>((wake) => waiters.push(wake))
      return items[n - 1]!
    },
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((done) => setTimeout(done, 10))
}

describe('bare ws baseline', () => {
  async function connect(url: string) {
    const ws = new WebSocket(`${url}/${randomUUID()}`)
    cleanups.push(() => ws.terminate())
    const frames = inbox<string>((push) => ws.on('message', (data: Buffer) => push(data.toString())))
    await once(ws, 'open')
    return { ws, frames }
  }

  it('answers a subscribe with the snapshot, then sends updates only for subscribed topics', async () => {
    const server = await startBareWsServer()
    cleanups.push(() => server.close())
    server.publish('DETAIL:btcusdt', JSON.stringify(frame('btcusdt', '1')))
    const { ws, frames } = await connect(server.wsUrl)

    ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }))
    expect(JSON.parse(await frames.nth(1))).toMatchObject({ symbol: 'btcusdt', data: { close: '1' } })

    server.publish('DETAIL:ethusdt', JSON.stringify(frame('ethusdt', '9')))
    server.publish('DETAIL:btcusdt', JSON.stringify(frame('btcusdt', '2')))
    expect(JSON.parse(await frames.nth(2))).toMatchObject({ symbol: 'btcusdt', data: { close: '2' } })
    expect(frames.items).toHaveLength(2)
  })

  it('stops sending after unsubscribe and forgets closed sockets', async () => {
    const server = await startBareWsServer()
    cleanups.push(() => server.close())
    const { ws, frames } = await connect(server.wsUrl)
    ws.send(JSON.stringify({ operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' }))
    await until(() => server.subscribers('KLINE:btcusdt:1min') === 1)
    ws.send(JSON.stringify({ operation: 'unsubscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' }))
    await until(() => server.subscribers('KLINE:btcusdt:1min') === 0)
    server.publish('KLINE:btcusdt:1min', '{"type":"KLINE"}')

    ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }))
    await until(() => server.subscribers('TRADE:btcusdt') === 1)
    ws.terminate()
    await until(() => server.subscribers('TRADE:btcusdt') === 0)
    expect(frames.items).toHaveLength(0)
  })

  it('answers a bad frame with an error and keeps the socket open', async () => {
    const server = await startBareWsServer()
    cleanups.push(() => server.close())
    const { ws, frames } = await connect(server.wsUrl)
    ws.send('{"operation":"subscribe","type":"NOPE"}')
    expect(JSON.parse(await frames.nth(1))).toMatchObject({ type: 'error', code: 400 })
    ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }))
    await until(() => server.subscribers('DETAIL:btcusdt') === 1)
    expect(ws.readyState).toBe(WebSocket.OPEN)
  })
})

describe('socket.io baseline on the real Redis', () => {
  async function connect(url: string) {
    const socket: Socket = connectSocketIo(url, { transports: ['websocket'], forceNew: true })
    cleanups.push(() => socket.disconnect())
    const frames = inbox<ServerFrame>((push) => socket.on(FRAME_EVENT, push))
    await new Promise((connected) => socket.once('connect', () => connected(undefined)))
    return { socket, frames }
  }

  it('answers a subscribe with the snapshot, then room updates', async () => {
    const server = await startSocketIoServer({ keyPrefix: `loadtests:test:${randomUUID()}` })
    cleanups.push(() => server.close())
    server.publish('TRADE:btcusdt', trade('btcusdt', '1'))
    const { socket, frames } = await connect(server.url)
    socket.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    expect(await frames.nth(1)).toMatchObject({ type: 'TRADE', data: { price: '1' } })
    server.publish('TRADE:btcusdt', trade('btcusdt', '2'))
    expect(await frames.nth(2)).toMatchObject({ type: 'TRADE', data: { price: '2' } })
  })

  it('reaches clients of another instance through the Redis adapter', async () => {
    const keyPrefix = `loadtests:test:${randomUUID()}`
    const publisher = await startSocketIoServer({ keyPrefix })
    cleanups.push(() => publisher.close())
    const other = await startSocketIoServer({ keyPrefix })
    cleanups.push(() => other.close())
    const { socket, frames } = await connect(other.url)
    socket.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' })
    // The join is not acknowledged; publish until the remote room has it.
    const timer = setInterval(() => publisher.publish('DETAIL:ethusdt', frame('ethusdt', '7')), 50)
    cleanups.push(() => clearInterval(timer))
    expect(await frames.nth(1)).toMatchObject({ symbol: 'ethusdt', data: { close: '7' } })
  })
})

describe('bare node proxy baseline', () => {
  async function startUpstream(
    handle: (request: IncomingMessage, body: string, response: ServerResponse) => void,
  ) {
    const upstream = createServer((request, response) => {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => handle(request, body, response))
    })
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    cleanups.push(() => new Promise((done) => upstream.close(done)))
    return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  }

  it('passes method, path, body and content type up, and status, type and body back', async () => {
    const seen: Array<{ method?: string; url?: string; type?: string; body: string }> = []
    const upstreamUrl = await startUpstream((request, body, response) => {
      seen.push({ method: request.method, url: request.url, type: request.headers['content-type'], body })
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"code":200,"data":[1]}')
    })
    const proxy = await startNodeProxyServer({ upstream: upstreamUrl })
    cleanups.push(() => proxy.close())

    const response = await fetch(`${proxy.url}/api/period/list?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"symbol":"btcusdt"}',
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe('{"code":200,"data":[1]}')
    expect(seen).toEqual([
      { method: 'POST', url: '/api/period/list?x=1', type: 'application/json', body: '{"symbol":"btcusdt"}' },
    ])
  })

  it('answers 502 when the upstream is gone', async () => {
    const upstreamUrl = await startUpstream((_request, _body, response) => response.end())
    const proxy = await startNodeProxyServer({ upstream: upstreamUrl })
    cleanups.push(() => proxy.close())
    await cleanups.shift()?.() // closes the upstream, registered first
    const response = await fetch(`${proxy.url}/api/period/list`)
    expect(response.status).toBe(502)
  })
})
