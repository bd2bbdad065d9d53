import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { WS_CLOSE, WS_ERROR, type ClientFrame, type ServerFrame } from '@tradegate/shared'
import { LiveClient, type SocketLike } from './socket-client'

// The live client against a real `ws` server on a free port.

interface TestServer {
  url: string
  frames: ClientFrame[]
  connections: number
  send(frame: ServerFrame): void
  /** while true, heartbeats are not answered (a gateway still waiting for a subscription to take effect) */
  holdHeartbeats: boolean
  /** answers the heartbeats held so far, in order */
  answerHeldHeartbeats(): void
  dropAll(): void
  /** closes every socket with a close frame carrying `code` */
  closeAll(code: number): void
  close(): Promise<void>
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startServer(): Promise<TestServer> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await once(server, 'listening')
  const held: WebSocket[] = []
  const answer = (socket: WebSocket) => socket.send(JSON.stringify({ type: 'HEARTBEAT', ts: Date.now() }))
  const state: TestServer = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/test`,
    frames: [],
    connections: 0,
    send: (frame) => {
      for (const client of server.clients) client.send(JSON.stringify(frame))
    },
    holdHeartbeats: false,
    answerHeldHeartbeats: () => {
      for (const socket of held.splice(0)) answer(socket)
    },
    dropAll: () => {
      for (const client of server.clients) client.terminate()
    },
    closeAll: (code) => {
      for (const client of server.clients) client.close(code, 'test')
    },
    close: () =>
      new Promise((done) => {
        for (const client of server.clients) client.terminate()
        server.close(() => done())
      }),
  }
  server.on('connection', (socket) => {
    state.connections++
    // answered as the gateway does, which waits until the subscriptions sent before it take effect
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as ClientFrame
      state.frames.push(frame)
      if (!('operation' in frame) || frame.operation !== 'heartbeat') return
      if (state.holdHeartbeats) held.push(socket)
      else answer(socket)
    })
  })
  cleanups.push(() => state.close())
  return state
}

/** A client whose every retry waits just under `reconnectMs`: the jitter drawn at its top. */
function startClient(url: string, reconnectMs = 50, onSessionEnded?: () => void): LiveClient {
  const client = new LiveClient({
    url: () => url,
    ...fixedRetry(reconnectMs),
    onSessionEnded,
    createSocket: (address) => new WebSocket(address) as unknown as SocketLike,
  })
  cleanups.push(() => client.dispose())
  return client
}

function fixedRetry(ms: number, busyMinMs = ms) {
  return { reconnect: { baseMs: ms, capMs: ms, busyMinMs, busyAttempt: 0 }, random: () => 0.99 }
}

/** The client has tried twice without opening a socket and waits to try again. */
function failedTwice(client: LiveClient): boolean {
  const connection = client.connection()
  return connection.state === 'waiting' && connection.retry >= 2
}

const detail = (symbol: string, close: string): ServerFrame => ({
  type: 'DETAIL',
  symbol,
  data: { open: '1', close, high: close, low: '1', vol: '10', amount: '10', change: '0' },
  ts: Date.now(),
})

describe('LiveClient', () => {
  it('sends one subscribe frame per topic however many listeners, and unsubscribes after the last', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    const leaveFirst = client.subscribe(
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
      () => {},
    )
    const leaveSecond = client.subscribe(
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
      () => {},
    )
    await expect.poll(() => server.frames.length >= 1).toBe(true)
    leaveFirst()
    leaveFirst()
    // frames go out in order: a heartbeat that arrives next shows nothing was sent before it
    client.send({ operation: 'heartbeat' })
    await expect.poll(() => server.frames.length >= 2).toBe(true)
    expect(server.frames).toEqual([
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
      { operation: 'heartbeat' },
    ])
    leaveSecond()
    await expect.poll(() => server.frames.length >= 3).toBe(true)
    expect(server.frames[2]).toEqual({ operation: 'unsubscribe', type: 'DETAIL', symbol: 'btcusdt' })
  })

  it('serves a topic at the fastest rate any listener asks for, with one subscription', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 }, () => {})
    await expect.poll(() => server.frames.length).toBe(1)
    // slower than what the topic has: nothing is sent
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 }, () => {})
    // faster: the subscription is moved to every tick
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, () => {})
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 250 }, () => {})
    client.send({ operation: 'heartbeat' })
    await expect.poll(() => server.frames.length >= 3).toBe(true)
    expect(server.frames).toEqual([
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 },
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
      { operation: 'heartbeat' },
    ])
  })

  it('queues frames while the socket is not open and sends them in order once it opens', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    client.setToken('secret-token')
    client.send({ operation: 'heartbeat' })
    client.subscribe({ operation: 'subscribe', type: 'POSITION' }, () => {})
    expect(client.isOpen).toBe(false)
    await expect.poll(() => server.frames.length >= 4).toBe(true)
    // last, the heartbeat whose answer says the per-user stream has taken effect
    expect(server.frames).toEqual([
      { operation: 'auth', satoken: 'secret-token' },
      { operation: 'subscribe', type: 'POSITION' },
      { operation: 'heartbeat' },
      { operation: 'heartbeat' },
    ])
  })

  it('routes a ticker to its symbol listeners and to the all-symbols listener', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    const btc: string[] = []
    const all: string[] = []
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, (frame) => {
      if (frame.type === 'DETAIL') btc.push(frame.data.close)
    })
    client.subscribe({ operation: 'subscribe', type: 'DETAIL' }, (frame) => {
      if (frame.type === 'DETAIL') all.push(`${frame.symbol}:${frame.data.close}`)
    })
    await expect.poll(() => server.frames.length >= 2).toBe(true)
    server.send(detail('btcusdt', '65000.5'))
    server.send(detail('ethusdt', '3200'))
    await expect.poll(() => all.length >= 2).toBe(true)
    expect(btc).toEqual(['65000.5'])
    expect(all).toEqual(['btcusdt:65000.5', 'ethusdt:3200'])
  })

  it('reconnects after the socket is killed and subscribes again to every active topic', async () => {
    const server = await startServer()
    const client = startClient(server.url, 100)
    const closes: string[] = []
    client.subscribe({ operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' }, () => {})
    const leave = client.subscribe({ operation: 'subscribe', type: 'TRADE', symbol: 'ethusdt' }, () => {})
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'trxusdt' }, (frame) => {
      if (frame.type === 'DETAIL') closes.push(frame.data.close)
    })
    await expect.poll(() => server.frames.length >= 3).toBe(true)
    leave()
    await expect.poll(() => server.frames.length >= 4).toBe(true)
    server.frames.length = 0
    const killedAt = Date.now()
    server.dropAll()
    await expect.poll(() => server.connections === 2 && server.frames.length >= 3).toBe(true)
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(90)
    expect(server.frames).toEqual([
      { operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' },
      { operation: 'subscribe', type: 'DETAIL', symbol: 'trxusdt' },
      { operation: 'heartbeat' },
    ])
    server.send(detail('trxusdt', '0.12'))
    await expect.poll(() => closes.length === 1).toBe(true)
    expect(closes).toEqual(['0.12'])
  })

  it('authenticates an open socket on sign-in and repeats the per-user subscriptions after it', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    client.subscribe({ operation: 'subscribe', type: 'SETTLEMENT' }, () => {})
    await expect.poll(() => client.isOpen && server.frames.length >= 1).toBe(true)
    client.setToken('fresh-token')
    await expect.poll(() => server.frames.length >= 4).toBe(true)
    expect(server.frames).toEqual([
      { operation: 'subscribe', type: 'SETTLEMENT' },
      { operation: 'auth', satoken: 'fresh-token' },
      { operation: 'subscribe', type: 'SETTLEMENT' },
      { operation: 'heartbeat' },
    ])
  })

  it('reports a session the gateway ended, and only for a signed-in socket', async () => {
    const server = await startServer()
    let ended = 0
    const client = startClient(server.url, 50, () => ended++)
    const details: ServerFrame[] = []
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, (frame) =>
      details.push(frame),
    )
    await expect.poll(() => server.connections === 1 && client.isOpen).toBe(true)
    // frames arrive in order: a ticker after an error shows the error was handled
    server.send({ type: 'error', code: WS_ERROR.sessionEnded, msg: 'sessionEnded' })
    server.send(detail('btcusdt', '1'))
    await expect.poll(() => details.length === 1).toBe(true)
    expect(ended).toBe(0)
    client.setToken('token-1')
    await expect
      .poll(() => server.frames.some((frame) => 'operation' in frame && frame.operation === 'auth'))
      .toBe(true)
    server.send({ type: 'error', code: WS_ERROR.notAuthorised, msg: 'notAuthorised' })
    server.send({ type: 'error', code: WS_ERROR.sessionEnded, msg: 'sessionEnded' })
    server.send(detail('btcusdt', '2'))
    await expect.poll(() => details.length === 2).toBe(true)
    expect(ended).toBe(1)
  })

  it('keeps trying while the server is down and connects once it is back', async () => {
    const probe = await startServer()
    const url = probe.url
    await probe.close()
    const client = startClient(url, 50)
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, () => {})
    await expect.poll(() => failedTwice(client)).toBe(true)
    const port = Number(new URL(url).port)
    const server = new WebSocketServer({ port, host: '127.0.0.1' })
    const received: unknown[] = []
    server.on('connection', (socket) =>
      socket.on('message', (data) => received.push(JSON.parse(String(data)))),
    )
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          for (const socket of server.clients) socket.terminate()
          server.close(() => done())
        }),
    )
    await expect.poll(() => received.length >= 1).toBe(true)
    expect(received).toEqual([{ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }])
  })

  it('reports reconnecting while no socket can connect, live once frames arrive, delayed after silence', async () => {
    const probe = await startServer()
    const url = probe.url
    await probe.close()
    const client = new LiveClient({
      url: () => url,
      ...fixedRetry(50),
      staleMs: 200,
      createSocket: (address) => new WebSocket(address) as unknown as SocketLike,
    })
    cleanups.push(() => client.dispose())
    let changes = 0
    client.onStatusChange(() => changes++)
    let heard = 0
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, () => heard++)
    await expect.poll(() => failedTwice(client)).toBe(true)
    expect(client.feedStatus()).toBe('reconnecting')
    const changesBeforeOpen = changes

    const server = new WebSocketServer({ port: Number(new URL(url).port), host: '127.0.0.1' })
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          for (const socket of server.clients) socket.terminate()
          server.close(() => done())
        }),
    )
    await expect.poll(() => client.isOpen).toBe(true)
    // each try and the open are told, so a badge can say what the socket is doing
    expect(changes).toBeGreaterThan(changesBeforeOpen)
    // an open socket is not a live feed: until a frame comes it is still connecting, then delayed
    expect(client.feedStatus()).toBe('reconnecting')
    expect(client.feedStatus(Date.now() + 300)).toBe('delayed')
    const changesBeforeFrames = changes
    for (const socket of server.clients) socket.send(JSON.stringify(detail('btcusdt', '1')))
    await expect.poll(() => heard === 1).toBe(true)
    // the first frame is told with it, so a badge turns live on it, not at its next check
    expect(changes).toBe(changesBeforeFrames + 1)
    expect(client.feedStatus()).toBe('live')
    // the frames that keep a flowing ticker flowing tell nothing: no render per tick
    for (const socket of server.clients) socket.send(JSON.stringify(detail('btcusdt', '1.5')))
    await expect.poll(() => heard === 2).toBe(true)
    expect(changes).toBe(changesBeforeFrames + 1)
    // silent for staleMs since that frame
    await expect.poll(() => client.feedStatus() === 'delayed').toBe(true)
    // the frame after the silence is told too
    for (const socket of server.clients) socket.send(JSON.stringify(detail('btcusdt', '2')))
    await expect.poll(() => heard === 3).toBe(true)
    expect(changes).toBe(changesBeforeFrames + 2)
    expect(client.feedStatus()).toBe('live')
    // a ticker of another symbol does not keep this one live
    for (const socket of server.clients) socket.send(JSON.stringify(detail('ethusdt', '2')))
    expect(client.feedStatus(Date.now() + 300)).toBe('delayed')
  })

  it("reads connecting on an open socket until a ticker is heard, and stays live while a new screen's ticker starts", async () => {
    const server = await startServer()
    const client = startClient(server.url)
    // a stream that is not a ticker keeps the socket open, as a screen's first render does
    client.subscribe({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }, () => {})
    await expect.poll(() => client.isOpen).toBe(true)
    expect(client.feedStatus()).toBe('reconnecting')
    const home = client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, () => {})
    expect(client.feedStatus()).toBe('reconnecting')
    server.send(detail('btcusdt', '1'))
    await expect.poll(() => client.feedStatus()).toBe('live')
    // another screen: the first one's ticker goes, the new one's first frame is still on its way
    home()
    let heard = 0
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' }, () => heard++)
    expect(client.feedStatus()).toBe('live')
    server.send(detail('ethusdt', '2'))
    await expect.poll(() => heard).toBe(1)
    expect(client.feedStatus()).toBe('live')
  })

  it('never reads live on frames stamped long ago: a snapshot replayed after a resubscribe is not data flowing', async () => {
    const server = await startServer()
    const client = new LiveClient({
      url: () => server.url,
      ...fixedRetry(50),
      staleMs: 200,
      createSocket: (address) => new WebSocket(address) as unknown as SocketLike,
    })
    cleanups.push(() => client.dispose())
    let heard = 0
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, () => heard++)
    await expect.poll(() => client.isOpen).toBe(true)
    server.send(detail('btcusdt', '1'))
    await expect.poll(() => heard === 1).toBe(true)
    await expect.poll(() => client.feedStatus() === 'delayed').toBe(true)
    // the feed stalls; the gateway replays the topic's last frame (its old stamp) again and again
    const replayed = { ...detail('btcusdt', '1'), ts: Date.now() - 1000 }
    for (let replay = 0; replay < 3; replay++) {
      server.send(replayed)
      await expect.poll(() => heard === 2 + replay).toBe(true)
      expect(client.feedStatus()).toBe('delayed')
    }
    // the listener still gets the replay (a screen shows the last price), only the badge ignores it
    server.send(detail('btcusdt', '2'))
    await expect.poll(() => client.feedStatus() === 'live').toBe(true)
  })

  it('resubscribe asks for a subscribed stream afresh and ignores one not subscribed', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    const depth = { operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' } as const
    client.subscribe(depth, () => {})
    await expect.poll(() => server.frames.length >= 1).toBe(true)
    client.resubscribe(depth)
    client.resubscribe({ operation: 'subscribe', type: 'DEPTH', symbol: 'ethusdt' })
    // frames go out in order: a heartbeat that arrives next shows the second resubscribe sent nothing
    client.send({ operation: 'heartbeat' })
    await expect.poll(() => server.frames.length >= 4).toBe(true)
    expect(server.frames).toEqual([
      depth,
      { ...depth, operation: 'unsubscribe' },
      depth,
      { operation: 'heartbeat' },
    ])
  })

  it('tells its resync listeners after a reconnect, but not after the first open', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    let resyncs = 0
    client.onResync(() => resyncs++)
    client.subscribe({ operation: 'subscribe', type: 'OWNCOIN' }, () => {})
    await expect.poll(() => client.isOpen && server.frames.length >= 1).toBe(true)
    expect(resyncs).toBe(0)
    server.dropAll()
    await expect.poll(() => server.connections === 2 && client.isOpen).toBe(true)
    await expect.poll(() => resyncs).toBe(1)
  })

  it("tells its resync listeners only once the gateway has taken a signed-in page's per-user streams", async () => {
    const server = await startServer()
    server.holdHeartbeats = true
    const client = startClient(server.url)
    let resyncs = 0
    client.onResync(() => resyncs++)
    client.setToken('token-1')
    client.subscribe({ operation: 'subscribe', type: 'OWNCOIN' }, () => {})
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, () => {})
    await expect.poll(() => server.frames.length >= 4).toBe(true)
    // what the page fetched before then may miss an event the stream will not carry: a refetch is owed,
    // and made only at the answer to the heartbeat sent after the subscriptions
    expect(server.frames).toEqual([
      { operation: 'auth', satoken: 'token-1' },
      { operation: 'subscribe', type: 'OWNCOIN' },
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
      { operation: 'heartbeat' },
    ])
    // a ticker after the held heartbeat shows the client has handled what came before it
    const ticks: string[] = []
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, (frame) => {
      if (frame.type === 'DETAIL') ticks.push(frame.data.close)
    })
    server.send(detail('btcusdt', '1'))
    await expect.poll(() => ticks).toEqual(['1'])
    expect(resyncs).toBe(0)
    server.answerHeldHeartbeats()
    await expect.poll(() => resyncs).toBe(1)

    // one step to the side: a new per-user stream on the open socket owes one more; a market stream none
    server.frames.length = 0
    client.subscribe({ operation: 'subscribe', type: 'POSITION' }, () => {})
    client.subscribe({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' }, () => {})
    await expect.poll(() => server.frames.length >= 3).toBe(true)
    expect(server.frames).toEqual([
      { operation: 'subscribe', type: 'POSITION' },
      { operation: 'heartbeat' },
      { operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' },
    ])
    // a socket lost before the answer owes it to the next one, which asks again after its subscriptions
    server.dropAll()
    await expect.poll(() => server.connections === 2 && server.frames.length >= 8).toBe(true)
    expect(server.frames.slice(3)).toEqual([
      { operation: 'auth', satoken: 'token-1' },
      { operation: 'subscribe', type: 'OWNCOIN' },
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
      { operation: 'subscribe', type: 'POSITION' },
      { operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' },
      { operation: 'heartbeat' },
    ])
    expect(resyncs).toBe(1)
    server.answerHeldHeartbeats()
    await expect.poll(() => resyncs).toBe(2)
  })

  it('takes a resync frame as a gap: every stream is asked afresh and the listeners are told', async () => {
    const server = await startServer()
    const client = startClient(server.url)
    let resyncs = 0
    client.onResync(() => resyncs++)
    const depth = { operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' } as const
    const own = { operation: 'subscribe', type: 'OWNCOIN' } as const
    client.subscribe(depth, () => {})
    client.subscribe(own, () => {})
    await expect.poll(() => server.frames.length >= 2).toBe(true)
    server.send({ type: 'resync', reason: 'bus', ts: Date.now() })
    await expect.poll(() => server.frames.length >= 7).toBe(true)
    expect(server.frames.slice(2)).toEqual([
      { ...depth, operation: 'unsubscribe' },
      depth,
      { ...own, operation: 'unsubscribe' },
      own,
      { operation: 'heartbeat' },
    ])
    await expect.poll(() => resyncs).toBe(1)
    expect(server.connections).toBe(1)
  })

  it('waits at least the busy floor after a close that asks it to, and tries at once when told otherwise', async () => {
    const server = await startServer()
    const client = new LiveClient({
      url: () => server.url,
      ...fixedRetry(60_000, 40_000),
      createSocket: (address) => new WebSocket(address) as unknown as SocketLike,
    })
    cleanups.push(() => client.dispose())
    client.subscribe({ operation: 'subscribe', type: 'DETAIL' }, () => {})
    await expect.poll(() => client.isOpen).toBe(true)
    server.closeAll(WS_CLOSE.tryAgainLater)
    await expect.poll(() => client.connection().state === 'waiting').toBe(true)
    const busy = client.connection()
    expect(busy).toMatchObject({ state: 'waiting', busy: true })
    expect(busy.state === 'waiting' && busy.retryAt - Date.now()).toBeGreaterThan(39_000)
    // the gateway asked to wait: coming back online does not cut that short
    client.connectNow()
    expect(client.connection().state).toBe('waiting')
    expect(server.connections).toBe(1)
  })

  it('cuts an ordinary back-off short when the browser is back', async () => {
    const server = await startServer()
    const client = startClient(server.url, 60_000)
    client.subscribe({ operation: 'subscribe', type: 'DETAIL' }, () => {})
    await expect.poll(() => client.isOpen).toBe(true)
    server.dropAll()
    await expect.poll(() => client.connection().state === 'waiting').toBe(true)
    expect(client.connection()).toMatchObject({ state: 'waiting', busy: false })
    client.connectNow()
    await expect.poll(() => server.connections === 2 && client.isOpen).toBe(true)
  })
})
