import fp from 'fastify-plugin'
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { GatewayError } from '../../lib/errors'
import type { RedisClient } from './redis'

// Requests per IP per minute, counted in Redis when there is one so every instance shares the count.
// Work a socket asks for (an auth frame costs the upstream a call) draws on the same budget.

declare module 'fastify' {
  interface FastifyInstance {
    /** Takes one request from a client address's budget; false once the budget is spent. */
    takeFromBudget(address: string): Promise<boolean>
  }
}

const WINDOW_MS = 60_000
const COUNT_SCRIPT = `local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`

type CountingClient = RedisClient & {
  gatewayRateCount(key: string, windowMs: number): Promise<[number, number]>
}

/** Counts one event under `key` in a fixed window shared by every instance: resolves [count so far, ms left]. */
export function redisWindowCounter(
  redis: RedisClient,
): (key: string, windowMs: number) => Promise<[number, number]> {
  if (!('gatewayRateCount' in redis))
    redis.defineCommand('gatewayRateCount', { numberOfKeys: 1, lua: COUNT_SCRIPT })
  const client = redis as CountingClient
  return (key, windowMs) => client.gatewayRateCount(key, windowMs)
}

/** A Redis counter that fails open: while Redis is away requests pass, and one warn line says so. */
function failOpenRedisStore(redis: RedisClient, prefix: string, log: FastifyBaseLogger) {
  const count = redisWindowCounter(redis)
  let failing = false
  const failed = (error: unknown) => {
    if (!failing)
      log.warn(
        { event: 'rate_limit_open', err: String(error) },
        'rate limit: Redis unavailable, not limiting',
      )
    failing = true
  }

  return class FailOpenRedisStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      if (redis.status !== 'ready') {
        const error = new Error(`redis ${redis.status}`)
        failed(error)
        callback(error)
        return
      }
      count(prefix + key, timeWindow).then(
        ([current, ttl]) => {
          if (failing) log.info({ event: 'rate_limit_shared' }, 'rate limit: Redis answering again')
          failing = false
          callback(null, { current, ttl })
        },
        (error: Error) => {
          failed(error)
          callback(error)
        },
      )
    }

    child(): FastifyRateLimitStore {
      return this
    }
  }
}

export const rateLimitPlugin = fp<{ perMinute: number }>(
  async (app, { perMinute }) => {
    const redis = app.redis
    await app.register(rateLimit, {
      global: true,
      max: perMinute,
      timeWindow: WINDOW_MS,
      skipOnError: true,
      // counters only on refusals, so ordinary answers stay small
      addHeadersOnExceeding: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
      },
      ...(redis ? { store: failOpenRedisStore(redis, `${app.redisPrefix}rate:`, app.log) } : {}),
      onExceeded: () => app.metrics.rejectedRequests.inc({ reason: 'rate_limited' }),
      errorResponseBuilder: () => new GatewayError(429, 'tooManyRequests'),
    })
    // the plugin's own limiter over its own store: the key is the address, as for a request
    const limiter = app.createRateLimit()
    app.decorate('takeFromBudget', async (address: string) => {
      const counted = await limiter({
        ip: address,
        routeOptions: { config: {} },
      } as unknown as FastifyRequest)
      if (counted.isAllowed || !counted.isExceeded) return true
      app.metrics.rejectedRequests.inc({ reason: 'rate_limited' })
      return false
    })
  },
  { name: 'rate-limit', dependencies: ['metrics', 'redis'] },
)
