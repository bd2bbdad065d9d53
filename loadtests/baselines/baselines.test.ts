import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { io as connectSocketIo, type Socket } from 'socket.io-client'
import { startBareWsServer } from './bare-ws-server'
import { FRAME_EVENT, startSocketIoServer } from './socketio-server'
import { startFastifyProxyServer, startNodeProxyServer } from './node-proxy-server'
import { startTickFeed, PublishLog } from './tick-feed'
import { DepthBooks, subscribeToFeed } from './feed-subscriber'
import { defaultScenario, type DepthFrame, type ServerFrame } from '../bench/scenario'
import { loadtestsDir, spawnTsServer } from '../bench/child-process'
import { FEED_TOKEN_HEADER } from '@tradegate/shared'

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
    await expect.poll(() => server.subscribers('KLINE:btcusdt:1min') === 1).toBe(true)
    ws.send(JSON.stringify({ operation: 'unsubscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' }))
    await expect.poll(() => server.subscribers('KLINE:btcusdt:1min') === 0).toBe(true)
    server.publish('KLINE:btcusdt:1min', '{"type":"KLINE"}')

    ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }))
    await expect.poll(() => server.subscribers('TRADE:btcusdt') === 1).toBe(true)
    ws.terminate()
    await expect.poll(() => server.subscribers('TRADE:btcusdt') === 0).toBe(true)
    expect(frames.items).toHaveLength(0)
  })

  it('corked, still delivers every frame of a burst in order', async () => {
    const server = await startBareWsServer({ cork: true })
    cleanups.push(() => server.close())
    const { ws, frames } = await connect(server.wsUrl)
    ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }))
    await expect.poll(() => server.subscribers('TRADE:btcusdt') === 1).toBe(true)
    for (let i = 1; i <= 50; i++) server.publish('TRADE:btcusdt', JSON.stringify(trade('btcusdt', String(i))))
    expect(JSON.parse(await frames.nth(50))).toMatchObject({ data: { price: '50' } })
    expect(frames.items.map((item) => (JSON.parse(item) as { data: { price: string } }).data.price)).toEqual(
      Array.from({ length: 50 }, (_, i) => String(i + 1)),
    )
  })

  it('pre-framed, writes one frame built per publish that a WebSocket client reads whole, at every length', async () => {
    const server = await startBareWsServer({ preframed: true })
    cleanups.push(() => server.close())
    const sends = vi.spyOn(WebSocket.prototype, 'send')
    cleanups.push(() => sends.mockRestore())
    const { ws, frames } = await connect(server.wsUrl)
    ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }))
    await expect.poll(() => server.subscribers('TRADE:btcusdt') === 1).toBe(true)
    // payloads under 126 bytes, under 64 KiB and above it take the three header lengths
    const prices = ['1', '2'.repeat(300), '3'.repeat(70_000)]
    for (const price of prices) server.publish('TRADE:btcusdt', JSON.stringify(trade('btcusdt', price)))
    await frames.nth(3)
    expect(frames.items.map((item) => (JSON.parse(item) as { data: { price: string } }).data.price)).toEqual(
      prices,
    )

    // a later subscriber gets the stored snapshot, already framed
    const late = await connect(server.wsUrl)
    late.ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }))
    expect(JSON.parse(await late.frames.nth(1))).toMatchObject({ data: { price: prices[2] } })
    // the server framed nothing per socket: every send seen was a client's subscribe
    expect(sends.mock.contexts.filter((socket) => socket !== ws && socket !== late.ws)).toEqual([])
  })

  it('answers a DEPTH subscribe with the book kept from the feed, not the last update', async () => {
    const server = await startBareWsServer()
    cleanups.push(() => server.close())
    const snapshot: DepthFrame = {
      type: 'DEPTH',
      symbol: 'btcusdt',
      data: {
        snapshot: true,
        seq: 4,
        bids: [
          ['99', '1'],
          ['98', '2'],
        ],
        asks: [['101', '1']],
      },
      ts: 1,
    }
    server.books.apply(snapshot)
    server.books.apply({
      ...snapshot,
      data: { snapshot: false, seq: 5, bids: [['98', '0']], asks: [['101', '3']] },
      ts: 2,
    })
    const { ws, frames } = await connect(server.wsUrl)
    ws.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' }))
    expect(JSON.parse(await frames.nth(1))).toEqual({
      type: 'DEPTH',
      symbol: 'btcusdt',
      data: { snapshot: true, seq: 5, bids: [['99', '1']], asks: [['101', '3']] },
      ts: 2,
    })
  })

  it('answers a bad frame with an error and keeps the socket open', async () => {
    const server = await startBareWsServer()
    cleanups.push(() => server.close())
    const { ws, frames } = await connect(server.wsUrl)
    ws.send('{"operation":"subscribe","type":"NOPE"}')
    expect(JSON.parse(await frames.nth(1))).toMatchObject({ type: 'error', code: 400 })
    ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }))
    await expect.poll(() => server.subscribers('DETAIL:btcusdt') === 1).toBe(true)
    expect(ws.readyState).toBe(WebSocket.OPEN)
  })
})

describe('DEPTH books', () => {
  it('ignores updates at or below the sequence it holds and updates before any snapshot', () => {
    const books = new DepthBooks()
    const frame = (seq: number, snapshot: boolean, qty: string): DepthFrame => ({
      type: 'DEPTH',
      symbol: 'ethusdt',
      data: { snapshot, seq, bids: [['10', qty]], asks: [] },
      ts: seq,
    })
    books.apply(frame(1, false, '9'))
    expect(books.snapshot('ethusdt')).toBeUndefined()
    books.apply(frame(3, true, '1'))
    books.apply(frame(3, false, '7'))
    books.apply(frame(4, false, '2'))
    expect(books.snapshot('ethusdt')!.data).toEqual({ snapshot: true, seq: 4, bids: [['10', '2']], asks: [] })
  })
})

describe('tick feed', () => {
  it('counts frames per topic by publish time, both ends of the range included', () => {
    const log = new PublishLog(4)
    log.add(100, 0)
    log.add(105, 1)
    log.add(110, 1)
    log.add(110, 0)
    log.add(120, 2) // the first entry is overwritten
    expect(log.count(105, 110, 3)).toEqual([1, 2, 0])
    expect(log.count(0, 1000, 3)).toEqual([1, 2, 1])
  })

  it('sends a new feed socket every DEPTH snapshot, then every frame, and refuses sockets without the token', async () => {
    const scenario = { ...defaultScenario, symbols: 2 }
    const feed = await startTickFeed({ scenario, feedToken: 'secret' })
    cleanups.push(() => feed.close())
    const ticks = feed.start(0.5)
    const frames: ServerFrame[] = []
    const subscription = await subscribeToFeed(feed.url, 'secret', (_topic, frame) => frames.push(frame))
    cleanups.push(() => subscription.close())
    await expect.poll(() => frames.some((frame) => frame.type === 'TRADE')).toBe(true)
    const snapshots = frames.filter((frame) => frame.type === 'DEPTH' && frame.data.snapshot)
    expect(snapshots.map((frame) => frame.symbol).sort()).toEqual(['btcusdt', 'ethusdt'])
    expect(ticks.published).toBeGreaterThan(0)
    const counts = feed.countPublished(0, Date.now())
    expect(counts['TRADE:btcusdt']).toBeGreaterThan(0)

    const stranger = new WebSocket(feed.url.replace('http', 'ws') + '/ws/x', {
      headers: { [FEED_TOKEN_HEADER]: 'wrong' },
    })
    const [code] = (await once(stranger, 'close')) as [number]
    expect(code).toBe(1008)
  })

  it('runs as the harness starts it: built to JavaScript, under plain Node, its fixture read from the package', async () => {
    const feed = await spawnTsServer(path.join(loadtestsDir, 'baselines', 'tick-feed.ts'), [
      '--feed-token',
      'secret',
    ])
    cleanups.push(() => feed.stop())
    // no TypeScript loader: its thread and V8 isolate would be charged to a baseline's memory
    const commandLine = readFileSync(`/proc/${feed.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    expect(commandLine.slice(1)).toEqual([
      path.join(loadtestsDir, 'build', 'tick-feed.mjs'),
      '--feed-token',
      'secret',
    ])
    const body = (await (await fetch(`http://127.0.0.1:${feed.port}/api/common/getCoinList`)).json()) as {
      data: { coinList: Array<{ symbol: string }> }
    }
    expect(body.data.coinList.map((entry) => entry.symbol)).toHaveLength(defaultScenario.symbols)
  })

  it('answers getCoinList with the scenario symbols over plain HTTP', async () => {
    const feed = await startTickFeed({ scenario: { ...defaultScenario, symbols: 10 }, feedToken: 'secret' })
    cleanups.push(() => feed.close())
    const body = (await (await fetch(`${feed.url}/api/common/getCoinList`)).json()) as {
      data: {
        coinList: Array<{ symbol: string }>
        contractList: Array<{ symbol: string; showSymbol: string }>
      }
    }
    expect(body.data.coinList.map((entry) => entry.symbol)).toHaveLength(10)
    expect(body.data.contractList[9]).toMatchObject({ symbol: 'coin009usdt', showSymbol: 'COIN009/USDT' })
  })
})

describe('socket.io baseline on its in-memory adapter', () => {
  it('answers a subscribe with the snapshot, then room updates, latest values emitted volatile', async () => {
    const server = await startSocketIoServer({ adapter: 'memory' })
    cleanups.push(() => server.close())
    server.publish('DETAIL:btcusdt', frame('btcusdt', '1'))
    const socket: Socket = connectSocketIo(server.url, { transports: ['websocket'], forceNew: true })
    cleanups.push(() => socket.disconnect())
    const frames = inbox<ServerFrame>((push) => socket.on(FRAME_EVENT, push))
    await new Promise((connected) => socket.once('connect', () => connected(undefined)))
    socket.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    expect(await frames.nth(1)).toMatchObject({ type: 'DETAIL', data: { close: '1' } })
    server.publish('DETAIL:btcusdt', frame('btcusdt', '2'))
    expect(await frames.nth(2)).toMatchObject({ type: 'DETAIL', data: { close: '2' } })
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

describe.each([
  ['bare node proxy', startNodeProxyServer],
  ['bare fastify proxy', startFastifyProxyServer],
])('%s baseline', (_name, startProxy) => {
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
    const proxy = await startProxy({ upstream: upstreamUrl })
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
    const proxy = await startProxy({ upstream: upstreamUrl })
    cleanups.push(() => proxy.close())
    await cleanups.shift()?.() // closes the upstream, registered first
    const response = await fetch(`${proxy.url}/api/period/list`)
    expect(response.status).toBe(502)
  })
})
