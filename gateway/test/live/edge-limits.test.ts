import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, waitFor, type TestGateway } from '../helpers'
import { connectClient } from './client'
import { startNginx, startNginxLogMetrics, type LogMetricsHandle, type NginxHandle } from './processes'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'

// docker/nginx.conf's per-address limits in front of three gateways: one address flooding sockets is
// held to one budget for the whole fleet (not one per gateway) and refused by nginx itself, before any
// gateway is touched, while another address opens sockets, gets ticks and REST answers as usual.

const FLOOD = '127.0.0.2'
const NEIGHBOUR = '127.0.0.3'
const BURSTER = '127.0.0.4'
/** the shipped file's limits */
const EDGE_SOCKETS = 100
const EDGE_BURST = 100

interface Attempt {
  status: number
  /** the refusal's body and Retry-After, when refused */
  body?: string
  retryAfter?: string
  socket?: WebSocket
}

/** A socket upgrade from `localAddress`: the open socket, or the status and body of its refusal. */
function openSocket(port: number, id: string, localAddress: string): Promise<Attempt> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/${id}`, { localAddress, perMessageDeflate: false })
    ws.once('open', () => resolve({ status: 101, socket: ws }))
    ws.once('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          retryAfter: response.headers['retry-after'] as string | undefined,
        }),
      )
    })
    ws.once('error', () => resolve({ status: 0 }))
  })
}

/** A GET through nginx from `localAddress`: its status and whether a gateway answered it. */
function get(
  port: number,
  path: string,
  localAddress: string,
): Promise<{ status: number; fromGateway: boolean }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (response) => {
      response.resume()
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, fromGateway: 'x-request-id' in response.headers }),
      )
    })
    sent.on('error', reject)
    sent.end()
  })
}

async function gatewayMetric(gateway: TestGateway, name: string, labels = ''): Promise<number> {
  const text = await gateway.app.metrics.registry.metrics()
  let sum = 0
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) && line.includes(labels)) sum += Number(line.split(' ').at(-1))
  return sum
}

describe('docker/nginx.conf limits each client address at the edge, for the whole fleet', () => {
  let upstream: SandboxUpstream
  const gateways: TestGateway[] = []
  let nginx: NginxHandle
  let logMetrics: LogMetricsHandle
  const held: WebSocket[] = []

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    for (let i = 0; i < 3; i++) {
      // each gateway's own cap is the default 100 per address: three of them would let one address
      // hold 300 sockets without the edge's limit
      const gateway = await startTestGateway({
        UPSTREAM_URL: upstream.url,
        FEED_TOKEN,
        REDIS_URL: '',
        TRUST_PROXY: 'loopback',
        INSTANCE_ID: `gateway-${i}`,
      })
      await gateway.app.listen({ port: 0, host: '127.0.0.1' })
      gateways.push(gateway)
    }
    nginx = await startNginx(gateways.map((gateway) => (gateway.app.server.address() as AddressInfo).port))
    logMetrics = await startNginxLogMetrics(nginx.accessLogFile)
  }, 60_000)
  afterAll(async () => {
    for (const socket of held) socket.terminate()
    await logMetrics?.kill('SIGTERM')
    await nginx?.close()
    await Promise.all(gateways.map((gateway) => gateway.close()))
    await upstream?.close()
  })

  it('holds a flood of 300 sockets from one address to 100 across three gateways; a neighbour is served', async () => {
    // the counter is the whole log's: what the other test's burst added is there before the flood
    const limitedBefore = await logMetrics.counter('nginx_edge_limited_total')
    const attempts = await Promise.all(
      Array.from({ length: 300 }, (_, i) => openSocket(nginx.port, `flood-${i}`, FLOOD)),
    )
    for (const attempt of attempts) if (attempt.socket) held.push(attempt.socket)
    const refused = attempts.filter((attempt) => attempt.status !== 101)

    expect(held.length).toBe(EDGE_SOCKETS)
    expect(refused.length).toBe(300 - EDGE_SOCKETS)
    for (const refusal of refused) {
      expect(refusal.status).toBe(429)
      expect(JSON.parse(refusal.body ?? '')).toEqual({ code: 429, msg: 'tooManyRequests' })
      expect(Number(refusal.retryAfter)).toBeGreaterThan(0)
    }
    // nginx refused them: no gateway saw an upgrade past its own cap, and the 100 are spread over all three
    for (const gateway of gateways)
      expect(await gatewayMetric(gateway, 'gateway_ws_refused_total', 'too_many_sockets')).toBe(0)
    await waitFor(
      async () =>
        (
          await Promise.all(gateways.map((gateway) => gatewayMetric(gateway, 'gateway_ws_connections')))
        ).every((count) => count > 0),
      'the flood spread over every gateway',
    )
    // and the operator sees them as the load balancer's refusals (LoadBalancerAddressLimited)
    await waitFor(
      async () => (await logMetrics.counter('nginx_edge_limited_total')) === limitedBefore + refused.length,
      "mtail counting nginx's own 429s",
    )

    // another address, meanwhile: its socket opens and gets ticks, its REST calls are answered
    const neighbour = await connectClient(`ws://127.0.0.1:${nginx.port}/ws/neighbour`, {
      localAddress: NEIGHBOUR,
    })
    neighbour.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await neighbour.next((frame) => frame.type === 'DETAIL')
    expect(await get(nginx.port, CALLS.getCoinList.path, NEIGHBOUR)).toEqual({
      status: 200,
      fromGateway: true,
    })
    await neighbour.close()

    // the bound is on sockets held, not a ban: one closed, one more opens, and then no other
    held.pop()!.terminate()
    let reopened: Attempt = { status: 0 }
    await waitFor(
      async () => (reopened = await openSocket(nginx.port, 'flood-again', FLOOD)).status === 101,
      'the freed socket slot taken again',
    )
    held.push(reopened.socket!)
    expect((await openSocket(nginx.port, 'flood-past-again', FLOOD)).status).toBe(429)
  }, 120_000)

  it('answers a burst of REST from one address past its budget with 429 at the edge, not at a gateway', async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * EDGE_BURST }, () => get(nginx.port, CALLS.getCoinList.path, BURSTER)),
    )
    const limited = answers.filter((answer) => answer.status === 429)
    // the burst and what the rate refilled meanwhile get through; the rest are nginx's own 429s
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(EDGE_BURST)
    expect(limited.length).toBeGreaterThan(0)
    expect(limited.every((answer) => !answer.fromGateway)).toBe(true)
    expect(await get(nginx.port, CALLS.getCoinList.path, NEIGHBOUR)).toEqual({
      status: 200,
      fromGateway: true,
    })
  }, 60_000)
})
