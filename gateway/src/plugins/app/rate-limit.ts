import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify'
import { GatewayError } from '../../lib/errors'
import type { RedisClient } from '../external/redis'
import { WindowLimiter, type Verdict } from './window-limiter'
import type { IncomingMessage } from 'node:http'

// Requests per client address per minute, counted in Redis when there is one so every instance shares
// the count (within the bound window-limiter.ts gives), decided without waiting on Redis per request.
// Work a socket asks for (an auth frame costs the upstream a call) draws on the same budget.
//
// Ours and not @fastify/rate-limit: its Redis store asks Redis for every request, so the cached-GET
// front door could not take a budget in its turn; the system built on it cost 3.3x (2.4-3.9x) ours per
// cached request with Redis, same rounds (RESULTS.md, "Decisions by A/B", fastify-rate-limit; docs/adr/0010).

declare module 'fastify' {
  interface FastifyInstance {
    /** Takes one request from a client address's budget; false once the budget is spent. */
    takeFromBudget(address: string): Promise<boolean>
    /** The budget check as a hook, for a handler registered outside the routes (the not-found handler). */
    rateLimitHook: preHandlerHookHandler
    /**
     * Takes one request from the budget of `raw`'s client address in the caller's turn, for an answer
     * written ahead of Fastify (the cached-GET front door): true to answer it there. The request keeps
     * the verdict, so if it goes on to Fastify after all, the hook answers by it without taking again.
     */
    takeBudgetAhead(raw: IncomingMessage, address: string): boolean
  }
  interface FastifyContextConfig {
    /** false leaves a route out of the budget */
    rateLimit?: false
  }
  interface FastifyRequest {
    /** set once the budget has been taken for this request, so a second hook does not take it again */
    rateLimitTaken: boolean
  }
}

const WINDOW_MS = 60_000

const CARRIED_VERDICT = Symbol('carriedBudgetVerdict')
type CarryingMessage = IncomingMessage & { [CARRIED_VERDICT]?: Verdict }

const COUNT_SCRIPT = `local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if current == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`

type CountingClient = RedisClient & {
  gatewayRateCount(key: string, windowMs: number, by: number): Promise<[number, number]>
}

/**
 * Counts `by` events (1 unless said) under `key` in a fixed window shared by every instance, the window
 * starting at its first event: resolves [count so far, ms left].
 */
export function redisWindowCounter(
  redis: RedisClient,
): (key: string, windowMs: number, by?: number) => Promise<[number, number]> {
  if (!('gatewayRateCount' in redis))
    redis.defineCommand('gatewayRateCount', { numberOfKeys: 1, lua: COUNT_SCRIPT })
  const client = redis as CountingClient
  return (key, windowMs, by = 1) => client.gatewayRateCount(key, windowMs, by)
}

/**
 * The budget's key for an address: IPv4 as it is; IPv6 by its /64 (one host's addresses), an
 * IPv4-mapped address as the IPv4 address it maps.
 */
export function budgetKeyOf(address: string): string {
  if (!address.includes(':')) return address
  const groups = ipv6Groups(address)
  if (!groups) return address.toLowerCase()
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.')
  // the URL parser writes the shortest standard form
  const subnet = [...groups.slice(0, 4), 0, 0, 0, 0].map((group) => group.toString(16)).join(':')
  return new URL(`http://[${subnet}]`).hostname.slice(1, -1)
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const text = address.replace(/%.*$/, '')
  if (!URL.canParse(`http://[${text}]`)) return null
  const hex = new URL(`http://[${text}]`).hostname.slice(1, -1)
  const [head = '', tail] = hex.split('::')
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : [])
  const front = parse(head)
  const back = tail === undefined ? [] : parse(tail)
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
}

export const rateLimitPlugin = fp<{ perMinute: number }>(
  async (app, { perMinute }) => {
    const redis = app.redis
    const countInRedis = redis ? redisWindowCounter(redis) : null
    const prefix = `${app.redisPrefix}rate:`
    const limiter = new WindowLimiter({
      max: perMinute,
      windowMs: WINDOW_MS,
      shared: countInRedis ? (key, windowMs, by) => countInRedis(prefix + key, windowMs, by) : null,
      sharedReady: () => redis?.status === 'ready',
      onSharedState: (up, error) => {
        if (up) app.log.info({ event: 'rate_limit_shared' }, 'rate limit: Redis answering again')
        else
          app.log.warn(
            { event: 'rate_limit_open', err: String(error) },
            'rate limit: Redis unavailable, not limiting',
          )
      },
    })
    app.addHook('onClose', async () => {
      limiter.close()
      await limiter.flush()
    })
    const rateLimited = app.metrics.rejectedRequests.labels('rate_limited')
    app.decorateRequest('rateLimitTaken', false)

    /** The 429 for a spent budget, with the headers that say how long it stays spent. */
    const refusal = (reply: FastifyReply, key: string): GatewayError => {
      rateLimited.inc()
      const seconds = limiter.secondsLeft(key)
      reply.headers({
        'x-ratelimit-limit': perMinute,
        'x-ratelimit-remaining': 0,
        'x-ratelimit-reset': seconds,
        'retry-after': seconds,
      })
      return new GatewayError(429, 'tooManyRequests')
    }

    // a callback hook: the budget is decided in the request's own turn unless Redis must be asked
    const hook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.rateLimitTaken) return done()
      request.rateLimitTaken = true
      const key = budgetKeyOf(request.ip)
      const verdict = (request.raw as CarryingMessage)[CARRIED_VERDICT] ?? limiter.take(key)
      if (verdict === true) return done()
      if (verdict === false) return done(refusal(reply, key))
      void verdict.then((allowed) => done(allowed ? undefined : refusal(reply, key)))
    }
    app.decorate('rateLimitHook', hook as preHandlerHookHandler)
    // every route registered from here on, after the route's own onRequest hooks
    app.addHook('onRoute', (route) => {
      if (route.config?.rateLimit === false) return
      const own = route.onRequest
      route.onRequest = [...(Array.isArray(own) ? own : own ? [own] : []), hook as onRequestHookHandler]
    })

    app.decorate('takeBudgetAhead', (raw: IncomingMessage, address: string) => {
      const verdict = limiter.take(budgetKeyOf(address))
      ;(raw as CarryingMessage)[CARRIED_VERDICT] = verdict
      return verdict === true
    })
    app.decorate('takeFromBudget', async (address: string) => {
      if (await limiter.take(budgetKeyOf(address))) return true
      rateLimited.inc()
      return false
    })
  },
  { name: 'rate-limit', dependencies: ['metrics', 'redis'] },
)
