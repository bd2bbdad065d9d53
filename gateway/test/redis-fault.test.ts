import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, startUpstream, waitFor, type TestGateway, type TestUpstream } from './helpers'

// Redis killed mid-run: requests keep succeeding from the in-process tier, the instance stays ready
// (REST works) and reports Redis down in /readyz's body, and it uses Redis again once it is back. A private redis-server; the machine's is never touched.

let redisPort = 0
let redisProcess: ChildProcess | null = null
let upstream: TestUpstream
let gateway: TestGateway

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function startRedis(): Promise<void> {
  redisProcess = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  )
  const probe = new Redis({
    port: redisPort,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  probe.on('error', () => undefined)
  try {
    await waitFor(
      async () =>
        (await probe.connect().then(
          () => probe.ping(),
          () => null,
        )) === 'PONG',
      'redis-server',
    )
  } finally {
    probe.disconnect()
  }
}

async function killRedis(): Promise<void> {
  const child = redisProcess
  if (!child || child.exitCode !== null) return
  const gone = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await gone
}

/** /readyz's status and the Redis state its body reports. */
async function readiness(): Promise<{ status: number; redis: string }> {
  const response = await gateway.app.inject({ url: '/readyz' })
  return { status: response.statusCode, redis: (response.json() as { redis: string }).redis }
}

const settings = (language: string) =>
  gateway.app.inject({ url: CALLS.getAllSetting.path, headers: { language } })

beforeAll(async () => {
  redisPort = await freePort()
  await startRedis()
  upstream = await startUpstream()
  gateway = await startTestGateway({
    UPSTREAM_URL: upstream.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  })
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
  await killRedis()
})

describe('Redis killed mid-run', () => {
  it('keeps answering and ready, reports Redis down, and recovers when Redis returns', async () => {
    expect((await settings('en')).headers['x-cache']).toBe('miss')
    expect(await readiness()).toEqual({ status: 200, redis: 'ready' })

    await killRedis()
    await waitFor(() => gateway.app.redis?.status !== 'ready', 'the gateway to notice')

    for (let round = 0; round < 5; round++) {
      const cached = await settings('en')
      expect(cached.statusCode).toBe(200)
      expect(cached.headers['x-cache']).toBe('hit')
      const uncached = await settings(`fr${round}`)
      expect(uncached.statusCode).toBe(200)
      const forwarded = await gateway.app.inject({ url: CALLS.assetBalance.path })
      expect(forwarded.statusCode).toBe(200)
    }
    const down = await readiness()
    expect(down.status).toBe(200)
    expect(down.redis).not.toBe('ready')
    expect((await gateway.app.inject({ url: '/metrics' })).body).toMatch(/gateway_redis_up\{[^}]*\} 0/)
    const warnings = gateway.logs.filter((line) => line.event === 'cache_shared_tier_down')
    expect(warnings).toHaveLength(1)
    expect(gateway.logs.filter((line) => line.event === 'rate_limit_open')).toHaveLength(1)

    await startRedis()
    await waitFor(async () => (await readiness()).redis === 'ready', 'Redis ready again', 15_000)
    expect((await settings('de')).headers['x-cache']).toBe('miss')
    const direct = new Redis({ port: redisPort })
    try {
      await waitFor(
        async () =>
          (await direct.exists(`${gateway.config.REDIS_PREFIX}cache:${CALLS.getAllSetting.path}|de|`)) === 1,
        'the shared tier to be written again',
      )
    } finally {
      direct.disconnect()
    }
    expect(gateway.logs.some((line) => line.event === 'cache_shared_tier_up')).toBe(true)
  })
})
