import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import { WS_CLOSE } from '@tradegate/shared'
import type { GatewayConfig } from '../config'
import { errorBody } from '../lib/errors'
import { writeRawAnswer } from '../lib/raw-answer'
import { ClientSocket, clientOf, type ClientSocketDeps } from './client-socket'
import { Pinger } from './pinger'
import type { SessionAuth } from './sessions'
import { SocketLog, logRefusedUpgrade } from './socket-log'
import { addUpgradeGuard, parseAllowedOrigins } from './upgrade-guard'

// The client socket endpoint /ws/:id: a @fastify/websocket route behind the upgrade guard, each
// accepted socket counted per address, pinged, and closed with 1001 when the gateway shuts down.

export interface SocketEndpointOptions {
  config: GatewayConfig
  /** every open client socket; the feed role broadcasts to them */
  sockets: Set<ClientSocket>
  clientDeps: ClientSocketDeps
  sessions: SessionAuth
}

/** A socket not closed this long after the shutdown's 1001 is cut. */
const SHUTDOWN_CLOSE_MS = 1000

/**
 * Node leaves the upgrade's unanswered response attached to the socket, and the websocket plugin
 * gives the socket an error listener that closes over the request and reply: together they would
 * keep the upgrade's Fastify request, reply, logger and headers, about 3 KiB, for the socket's whole
 * life. Neither is needed once the socket is open.
 */
function releaseUpgradeRequest(ws: WebSocket, raw: Socket): void {
  ;(raw as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.detachSocket(raw)
  ws.removeAllListeners('error')
}

export async function registerSocketEndpoint(app: FastifyInstance, options: SocketEndpointOptions) {
  const { config, sockets, clientDeps, sessions } = options
  const { metrics, log } = app
  const perAddress = new Map<string, number>()
  const pinger = new Pinger(config.WS_PING_INTERVAL_MS)
  let nextSocketId = 1
  let draining = false
  await app.register(websocket, {
    options: { perMessageDeflate: false, maxPayload: config.WS_MAX_PAYLOAD_BYTES, clientTracking: false },
    // sockets are closed with 1001 by this endpoint's own preClose hook below
    preClose: (done) => done(),
    errorHandler: (error, socket) => {
      log.debug({ event: 'ws_error', err: error.message }, 'socket error')
      socket.terminate()
    },
  })

  // ws answers a handshake it cannot complete (a method other than GET, a missing or malformed
  // Sec-WebSocket-Key, an unknown version, a bad subprotocol list) in plain text unless someone listens
  // for it: the answer here has the body every other refusal has
  app.websocketServer.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) => {
    const status = request.method === 'GET' ? 400 : 405
    metrics.wsRefused.inc({ reason: 'handshake' })
    logRefusedUpgrade(log, status, 'handshake')
    socket.on('error', () => socket.destroy())
    writeRawAnswer(
      socket,
      errorBody(status, 'badRequest', 'handshake'),
      /Version/.test(error.message) ? { 'sec-websocket-version': '13, 8' } : {},
    )
  })

  // One error and one close listener for every socket, with the socket as `this`: closures per
  // socket, and the context they share, would cost some 180 bytes of heap per socket.
  function onError(this: WebSocket, error: Error): void {
    clientOf(this).log?.error(error)
    this.terminate()
  }
  // `on`, not `once`: ws emits close once, and `once` keeps a wrapper, its bound copy and their
  // state per socket
  function onClose(this: WebSocket, code: number, reason: Buffer): void {
    const client = clientOf(this)
    const socketLog = client.log!
    const { address } = client
    client.leaveAll()
    sessions.left(client)
    sockets.delete(client)
    pinger.remove(client, socketLog.socketId)
    const left = (perAddress.get(address) ?? 1) - 1
    if (left > 0) perAddress.set(address, left)
    else perAddress.delete(address)
    metrics.wsConnections.dec()
    const kind = socketLog.closeKind()
    // a socket cut for lagging is counted once, where the hub cuts it: gateway_ws_dropped_total{reason="slow_close"}
    if (kind !== 'slow_close') metrics.wsClosed.inc({ reason: kind })
    socketLog.closed(code, reason.toString(), sockets.size)
  }

  const accept = (ws: WebSocket, raw: Socket, address: string, clientId: string): void => {
    releaseUpgradeRequest(ws, raw)
    const socketId = nextSocketId++
    const socketLog = new SocketLog(log, socketId, clientId)
    const client = new ClientSocket(ws, raw, address, clientDeps, socketLog)
    sockets.add(client)
    pinger.add(client, socketId)
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1)
    metrics.wsConnections.inc()
    socketLog.connected(sockets.size)
    ws.on('error', onError)
    ws.on('close', onClose)
  }

  addUpgradeGuard(app, {
    allowedOrigins: parseAllowedOrigins(config.ALLOWED_ORIGINS),
    maxSocketsPerAddress: config.WS_MAX_SOCKETS_PER_IP,
    socketsOf: (address) => perAddress.get(address) ?? 0,
    // from the shutdown signal on (readiness), not only once the server closes
    draining: () => draining || app.readiness.draining,
  })
  for (const url of ['/ws/:id', '/ws/:id/'])
    app.get<{ Params: { id: string } }>(url, { websocket: true }, (ws, request) =>
      accept(ws, request.raw.socket as Socket, request.ip, request.params.id),
    )

  // sockets must be gone before the HTTP server can finish closing
  app.addHook('preClose', async () => {
    draining = true
    pinger.stop()
    await Promise.all([...sockets].map(closeForShutdown))
  })
}

function closeForShutdown(client: ClientSocket): Promise<void> {
  return new Promise<void>((resolve) => {
    client.ws.once('close', () => resolve())
    client.log?.closing(WS_CLOSE.goingAway, 'server shutting down')
    client.ws.close(WS_CLOSE.goingAway, 'server shutting down')
    setTimeout(() => {
      client.ws.terminate()
      resolve()
    }, SHUTDOWN_CLOSE_MS).unref()
  })
}
