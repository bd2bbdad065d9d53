import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { budgetKeyOf, redisWindowCounter } from '../../src/plugins/app/rate-limit'
import { WindowLimiter } from '../../src/plugins/app/window-limiter'
import { REDIS_URL, deleteKeys, startTestGateway, uniquePrefix, useTestStack } from '../helpers'

// The request budget shared through Redis without a Redis round trip per request, and its bound.

const stack = useTestStack({ REDIS_URL: '' })

let redis: Redis
const prefixes: string[] = []
beforeAll(async () => {
  // connected before the first take: while it connects the budget passes every request, as while Redis is away
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true })
  await redis.connect()
})
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(prefix)
  redis.disconnect()
})

function sharedLimiter(prefix: string, max: number): WindowLimiter {
  const count = redisWindowCounter(redis)
  return new WindowLimiter({
    max,
    windowMs: 60_000,
    shared: (key, windowMs, by) => count(prefix + key, windowMs, by),
    sharedReady: () => redis.status === 'ready',
    onSharedState: () => {},
  })
}

describe('request budget shared through Redis', () => {
  it('admits at most max + (instances - 1) x slack a window, however the instances race', async () => {
    const prefix = uniquePrefix('rate-bound')
    prefixes.push(prefix)
    const max = 500
    const instances = [1, 2, 3].map(() => sharedLimiter(prefix, max))
    try {
      expect(instances[0]!.slack).toBe(5)
      // every instance takes in the same turns, many before any Redis answer can arrive
      const verdicts: Array<boolean | Promise<boolean>> = []
      for (let round = 0; round < 400; round++) {
        for (const limiter of instances) verdicts.push(limiter.take('203.0.113.7'))
        if (round % 25 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
      const admitted = (await Promise.all(verdicts)).filter(Boolean).length
      expect(admitted).toBeGreaterThanOrEqual(max)
      expect(admitted).toBeLessThanOrEqual(max + (instances.length - 1) * instances[0]!.slack)
      await Promise.all(instances.map((limiter) => limiter.flush()))
      // what Redis holds is every instance's count: the budget is spent for each of them
      expect(Number(await redis.get(`${prefix}203.0.113.7`))).toBeGreaterThanOrEqual(max)
      for (const limiter of instances) expect(await limiter.take('203.0.113.7')).toBe(false)
      expect(await instances[0]!.take('203.0.113.8')).toBe(true)
    } finally {
      for (const limiter of instances) limiter.close()
    }
  })

  it('decides in the request’s own turn while under its slack, and sends the count in batches', async () => {
    const prefix = uniquePrefix('rate-batch')
    prefixes.push(prefix)
    const limiter = sharedLimiter(prefix, 1000)
    try {
      // the first request of an address waits for nothing: slack 10 lets an instance run ahead of Redis
      const verdicts = Array.from({ length: 10 }, () => limiter.take('198.51.100.1'))
      expect(verdicts).toEqual(Array(10).fill(true))
      expect(await redis.get(`${prefix}198.51.100.1`)).toBeNull()
      // the eleventh is past the slack: it waits for Redis, which then holds all eleven
      const eleventh = limiter.take('198.51.100.1')
      expect(eleventh).toBeInstanceOf(Promise)
      expect(await eleventh).toBe(true)
      expect(await redis.get(`${prefix}198.51.100.1`)).toBe('11')
      expect(Number(await redis.pttl(`${prefix}198.51.100.1`))).toBeGreaterThan(50_000)
      expect(limiter.take('198.51.100.1')).toBe(true)
      await limiter.flush()
      expect(await redis.get(`${prefix}198.51.100.1`)).toBe('12')
    } finally {
      limiter.close()
    }
  })

  it('gives two gateways sharing Redis one budget within the bound', async () => {
    const prefix = uniquePrefix('rate-gateways')
    prefixes.push(prefix)
    const budget = 200
    const [first, second] = await Promise.all(
      [0, 1].map(() =>
        startTestGateway({
          UPSTREAM_URL: stack.upstream.url,
          RATE_LIMIT_PER_MINUTE: budget,
          REDIS_PREFIX: prefix,
        }),
      ),
    )
    try {
      const statuses: number[] = []
      for (let index = 0; index < 260; index++) {
        const gateway = index % 2 === 0 ? first! : second!
        statuses.push((await gateway.app.inject({ url: CALLS.getCoinList.path })).statusCode)
      }
      const admitted = statuses.filter((status) => status === 200).length
      // slack is 1% of the budget: 2 requests an instance may run ahead of Redis
      expect(admitted).toBeGreaterThanOrEqual(budget)
      expect(admitted).toBeLessThanOrEqual(budget + 2)
      expect(statuses.slice(-20)).toEqual(Array(20).fill(429))
      const refused = await first!.app.inject({ url: CALLS.getCoinList.path })
      expect(refused.json()).toEqual({ code: 429, msg: 'tooManyRequests' })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(refused.headers['x-ratelimit-remaining']).toBe('0')
    } finally {
      await first!.close()
      await second!.close()
    }
  })
})

describe('budget keys', () => {
  it('keeps IPv4 addresses as they are and groups IPv6 by its /64', () => {
    expect(budgetKeyOf('203.0.113.9')).toBe('203.0.113.9')
    expect(budgetKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(budgetKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::')
    expect(budgetKeyOf('2001:DB8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::')
    expect(budgetKeyOf('::1')).toBe('::')
  })
})
