import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'node:http'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { buildGateway, type BuildOptions } from '../src/app'
import { configWith, type GatewayConfig } from '../src/config'
import { REDIS_URL, deleteKeys, uniquePrefix } from './live/helpers'
import { startUpstream, type TestUpstream } from './upstream'

// Builds the whole gateway against a real upstream and the real Redis, with a key prefix of its own.

export { REDIS_URL, uniquePrefix, deleteKeys, startUpstream, type TestUpstream }
export { waitFor } from './live/helpers'

export interface TestGateway {
  app: FastifyInstance
  config: GatewayConfig
  /** every log line written so far, parsed */
  logs: Array<Record<string, unknown>>
  /** the raw log text, for asserting that a secret appears nowhere */
  logText(): string
  close(): Promise<void>
}

/** A directory with no built client, so tests never depend on the web workspace having been built. */
export function emptyWebDist(): string {
  return mkdtempSync(join(tmpdir(), 'gateway-web-'))
}

export async function startTestGateway(
  overrides: Partial<GatewayConfig> & { UPSTREAM_URL: string },
  build: Pick<BuildOptions, 'cachedFrontDoor'> = {},
): Promise<TestGateway> {
  const webDist = overrides.WEB_DIST ?? emptyWebDist()
  const config = configWith({
    LOG_LEVEL: 'info',
    REDIS_URL,
    REDIS_PREFIX: uniquePrefix('rest'),
    WEB_DIST: webDist,
    ...overrides,
  })
  const chunks: string[] = []
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString())
      done()
    },
  })
  // no load shedding in test builds, so a busy machine never turns a test's request into a 503;
  // a test about shedding sets its own MAX_EVENT_LOOP_DELAY_MS
  const loadShedding = overrides.MAX_EVENT_LOOP_DELAY_MS !== undefined
  const app = await buildGateway(config, { ...build, logStream, loadShedding })
  await app.ready()
  if (config.REDIS_URL) await waitForRedis(app)
  const logText = () => chunks.join('')
  return {
    app,
    config,
    get logs() {
      return logText()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    },
    logText,
    async close() {
      await app.close()
      if (config.REDIS_URL) await deleteKeys(config.REDIS_PREFIX, config.REDIS_URL).catch(() => undefined)
      if (!overrides.WEB_DIST) rmSync(webDist, { recursive: true, force: true })
    },
  }
}

export interface TestStack {
  upstream: TestUpstream
  gateway: TestGateway
  /** the gateway's port on 127.0.0.1 when started with `listen`, for tests that need a real connection */
  port: number
}

/**
 * Starts a real upstream and a gateway in front of it before a file's (or a describe's) tests, and
 * closes both after them; with `listen`, the gateway also listens on a free port of 127.0.0.1.
 */
export function useTestStack(
  overrides: Partial<GatewayConfig> = {},
  { listen = false }: { listen?: boolean } = {},
): TestStack {
  const stack = { port: 0 } as TestStack
  beforeAll(async () => {
    stack.upstream = await startUpstream()
    stack.gateway = await startTestGateway({ UPSTREAM_URL: stack.upstream.url, ...overrides })
    if (!listen) return
    await stack.gateway.app.listen({ port: 0, host: '127.0.0.1' })
    stack.port = (stack.gateway.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await stack.gateway?.close()
    await stack.upstream?.close()
  })
  return stack
}

async function waitForRedis(app: FastifyInstance): Promise<void> {
  const deadline = Date.now() + 5000
  while (app.redis && app.redis.status !== 'ready') {
    if (Date.now() > deadline) throw new Error('Redis did not become ready')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** A request over a real connection, its answer's bytes as sent (fetch would decode them). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method, headers: options.headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      )
    })
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

/** `rawRequest` with the method left to GET. */
export function rawGet(url: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return rawRequest(url, { headers, body })
}
