import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, startUpstream, waitFor, type TestGateway, type TestUpstream } from './helpers'
import { startRedisChild, type RedisChild } from './support/redis-server'

// Redis killed mid-run: requests keep succeeding from the in-process tier, the instance stays ready
// (REST works) and reports Redis down in /readyz's body, and it uses Redis again once it is back. A private redis-server; the machine's is never touched.

let redis: RedisChild
let upstream: TestUpstream
let gateway: TestGateway

/** /readyz's status and the Redis state its body reports. */
async function readiness(): Promise<{ status: number; redis: string }> {
  const response = await gateway.app.inject({ url: '/readyz' })
  return { status: response.statusCode, redis: (response.json() as { redis: string }).redis }
}

const settings = (language: string) =>
  gateway.app.inject({ url: CALLS.getAllSetting.path, headers: { language } })

beforeAll(async () => {
  redis = await startRedisChild()
  upstream = await startUpstream()
  gateway = await startTestGateway({
    UPSTREAM_URL: upstream.url,
    REDIS_URL: redis.url,
  })
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
  await redis?.kill()
})

describe('Redis killed mid-run', () => {
  it('keeps answering and ready, reports Redis down, and recovers when Redis returns', async () => {
    expect((await settings('en')).headers['x-cache']).toBe('miss')
    expect(await readiness()).toEqual({ status: 200, redis: 'ready' })

    await redis.kill()
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

    await redis.start()
    await waitFor(async () => (await readiness()).redis === 'ready', 'Redis ready again', 15_000)
    expect((await settings('de')).headers['x-cache']).toBe('miss')
    const direct = new Redis({ port: redis.port })
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
