import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { FEED_TOKEN_HEADER, USER_TYPES, WS_ERROR, parseClientFrame, topicOf } from '@tradegate/shared'
import type { Market } from '../markets/market'
import type { FeedHub } from './feed-hub'
import type { MarketFeed } from './market-feed'

// The feed socket at /ws/:id: a gateway presenting the feed token gets everything, anyone else subscribes.

const FEED_PATH = /^\/ws\/[A-Za-z0-9_-]{1,64}$/
const MAX_FRAME_BYTES = 16 * 1024

export interface FeedServerOptions {
  server: Server
  hub: FeedHub
  marketFeed: MarketFeed
  market: Market
  feedToken: string
  clock: () => number
}

export function attachFeedServer({ server, hub, marketFeed, market, feedToken, clock }: FeedServerOptions) {
  const sockets = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_FRAME_BYTES,
  })
  const expected = Buffer.from(feedToken)

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0] ?? ''
    if (!FEED_PATH.test(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
      return
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const presented = request.headers[FEED_TOKEN_HEADER]
      const isGateway =
        typeof presented === 'string' &&
        presented.length === expected.length &&
        timingSafeEqual(Buffer.from(presented), expected)
      if (isGateway) hub.addGateway(ws)
      else hub.addClient(ws)
      ws.on('message', (data, isBinary) => onMessage(ws, data, isBinary))
      ws.on('error', () => ws.terminate())
    })
  }

  const onMessage = (ws: WebSocket, data: RawData, isBinary: boolean) => {
    if (isBinary) return hub.sendError(ws, WS_ERROR.badFrame, 'textFramesOnly')
    const parsed = parseClientFrame(data.toString())
    if (!parsed.ok) return hub.sendError(ws, WS_ERROR.badFrame, parsed.error)
    const frame = parsed.value
    if (!('operation' in frame) || frame.operation === 'heartbeat') {
      return ws.send(JSON.stringify({ type: 'HEARTBEAT', ts: clock() }))
    }
    // user events travel only to the gateway's feed-token socket, never on a client subscription
    if (frame.operation === 'auth') return
    if ((USER_TYPES as readonly string[]).includes(frame.type)) {
      return hub.sendError(ws, WS_ERROR.notAuthorised, 'userEventsNeedFeedToken')
    }
    if ('symbol' in frame && frame.symbol !== undefined && !market.has(frame.symbol)) {
      return hub.sendError(ws, WS_ERROR.badFrame, 'unknownSymbol')
    }
    const topic = topicOf(frame)
    if (topic === null) return
    if (frame.operation === 'unsubscribe') return hub.unsubscribe(ws, topic)
    // taken before subscribing: a DEPTH snapshot first publishes pending changes, which the new
    // subscriber must not receive ahead of the snapshot that holds them
    const snapshots = hub.isPaused ? [] : marketFeed.snapshot(frame)
    if (!hub.subscribe(ws, topic)) return hub.sendError(ws, WS_ERROR.tooMany, 'tooManySubscriptions')
    for (const json of snapshots) ws.send(json)
  }

  // the books are kept by updates, so a gateway starts from every book's snapshot
  hub.greetGatewaysWith(() => marketFeed.depthSnapshots())
  server.on('upgrade', onUpgrade)
  return {
    async close(): Promise<void> {
      server.off('upgrade', onUpgrade)
      for (const ws of sockets.clients) ws.terminate()
      await new Promise<void>((resolve) => sockets.close(() => resolve()))
    },
  }
}
