import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { GatewayConfig } from '../../src/config'
import { startTestGateway } from '../helpers'

// The whole gateway, built by the same test builder as every other test, listening on a free port
// for socket clients. Only the defaults differ: no log capture (ten thousand socket cycles would
// fill it), no Redis unless a test names one, and a rate limit no socket test reaches unless it sets
// its own (socket opens and auths draw on it).

export interface RunningGateway {
  app: FastifyInstance
  port: number
  /** ws://127.0.0.1:port/ws/<id> for a fresh client id */
  socketUrl(id?: string): string
  close(): Promise<void>
}

/** Socket opens count against the per-IP rate limit; socket tests open thousands from one address. */
const SOCKET_TEST_RATE_LIMIT = 1_000_000

let clientCounter = 0

export async function startGateway(
  overrides: Partial<GatewayConfig> & { UPSTREAM_URL: string },
): Promise<RunningGateway> {
  const gateway = await startTestGateway({
    LOG_LEVEL: 'silent',
    REDIS_URL: '',
    RATE_LIMIT_PER_MINUTE: SOCKET_TEST_RATE_LIMIT,
    ...overrides,
  })
  const { app } = gateway
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return {
    app,
    port,
    socketUrl: (id) => `ws://127.0.0.1:${port}/ws/${id ?? `client-${++clientCounter}`}`,
    close: () => gateway.close(),
  }
}
