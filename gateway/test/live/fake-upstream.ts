import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { WebSocket } from 'ws'
import { WebSocketServer } from 'ws'
import { FEED_TOKEN_HEADER } from '@tradegate/shared'

// A stand-in upstream, only for frames the sandbox never sends (raw number shapes, floods of
// oversized user events, DEPTH books with gaps on purpose): the feed socket (every stream to a
// socket presenting the feed token), the user-info call and the coin list. Everything about the
// real feed runs against the sandbox (sandbox-upstream.ts).

export const FEED_TOKEN = 'test-feed-token'

export interface FakeUpstream {
  url: string
  /** token -> user id answered by the user-info call */
  users: Map<string, string>
  /** the symbols getCoinList lists */
  symbols: Set<string>
  /** getCoinList calls answered */
  coinListCalls: number
  /** frames the gateway sent on its feed socket, parsed */
  received: Array<Record<string, unknown>>
  /** sends to every open feed socket */
  send(frame: object | string): void
  close(): Promise<void>
}

export const FAKE_SYMBOLS = ['btcusdt', 'ethusdt', 'solusdt']

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const users = new Map<string, string>()
  const feeds = new Set<WebSocket>()
  const http: Server = createServer((request, response) => {
    if (request.url === '/api/common/getCoinList') {
      upstream.coinListCalls++
      const coinList = [...upstream.symbols].map((symbol) => ({ symbol }))
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          code: 200,
          msg: 'ok',
          data: { coinList, currencyList: [], contractList: [], optionList: [] },
        }),
      )
      return
    }
    if (request.url === '/api/user/info') {
      const userId = users.get(String(request.headers.satoken ?? ''))
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify(
          userId ? { code: 200, msg: 'ok', data: { userId } } : { code: 401, msg: 'notLoggedIn', data: null },
        ),
      )
      return
    }
    response.statusCode = 404
    response.end()
  })
  const wss = new WebSocketServer({ noServer: true })
  http.on('upgrade', (request, socket, head) => {
    if (!request.url?.startsWith('/ws/') || request.headers[FEED_TOKEN_HEADER] !== FEED_TOKEN) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n')
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      feeds.add(ws)
      ws.on('message', (data) =>
        upstream.received.push(JSON.parse(data.toString()) as Record<string, unknown>),
      )
      ws.on('close', () => feeds.delete(ws))
      ws.on('error', () => ws.terminate())
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  const upstream: FakeUpstream = {
    url: `http://127.0.0.1:${port}`,
    users,
    symbols: new Set(FAKE_SYMBOLS),
    coinListCalls: 0,
    received: [],
    send(frame) {
      const text = typeof frame === 'string' ? frame : JSON.stringify(frame)
      for (const ws of feeds) ws.send(text)
    },
    async close() {
      for (const ws of feeds) ws.terminate()
      wss.close()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
  return upstream
}

/** A DETAIL message as an upstream sends it: numbers, nested under data.tick. */
export function upstreamDetail(symbol: string, close: number, ts: number): object {
  return {
    type: 'DETAIL',
    symbol,
    ts,
    data: { tick: { open: 100, close, high: 200, low: 50, vol: 10, amount: 1000, change: 1.5 } },
  }
}

/** A DEPTH message as an upstream sends it; levels as [price, qty] pairs. */
export function upstreamDepth(
  symbol: string,
  seq: number,
  snapshot: boolean,
  bids: Array<[string | number, string | number]>,
  asks: Array<[string | number, string | number]>,
  ts = Date.now(),
): object {
  return { type: 'DEPTH', symbol, ts, data: { snapshot, seq, bids, asks } }
}
