import fp from 'fastify-plugin'
import { Redis, Cluster, type RedisOptions } from 'ioredis'

// One command connection per instance when REDIS_URL is set; its users make their own subscriber
// connections with `duplicate()`.

export type RedisClient = Redis | Cluster

export interface RedisTarget {
  cluster: boolean
  nodes: Array<{ host: string; port: number }>
  password?: string
}

/** Parses redis://host:port, a comma list of them, or redis-cluster://host:port,host:port. */
export function parseRedisUrl(url: string): RedisTarget {
  const cluster = url.startsWith('redis-cluster://')
  const list = url.replace(/^redis-cluster:\/\//, '').split(',')
  let password: string | undefined
  const nodes = list.map((entry) => {
    const parsed = new URL(entry.includes('://') ? entry : `redis://${entry}`)
    if (parsed.password) password = decodeURIComponent(parsed.password)
    return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) }
  })
  return { cluster: cluster || nodes.length > 1, nodes, password }
}

export function createRedis(url: string, options: RedisOptions = {}): RedisClient {
  const target = parseRedisUrl(url)
  const common: RedisOptions = {
    password: target.password,
    // commands fail fast while Redis is away, so callers fall back instead of queueing forever
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(200 * attempt, 2000),
    ...options,
  }
  if (target.cluster) return new Cluster(target.nodes, { redisOptions: common, enableOfflineQueue: false })
  const [node] = target.nodes
  return new Redis({ ...common, host: node?.host, port: node?.port })
}

declare module 'fastify' {
  interface FastifyInstance {
    /** null when the gateway runs without Redis */
    redis: RedisClient | null
    redisPrefix: string
  }
}

export const redisPlugin = fp<{ url: string; prefix: string }>(
  async (app, { url, prefix }) => {
    const redis = url ? createRedis(url) : null
    app.decorate<RedisClient | null>('redis', redis)
    app.decorate('redisPrefix', prefix)
    if (!redis) return
    const up = app.metrics.redisUp
    up.set(0)
    redis.on('ready', () => {
      up.set(1)
      app.log.info({ event: 'redis_ready' }, 'redis ready')
    })
    redis.on('end', () => up.set(0))
    redis.on('close', () => up.set(0))
    redis.on('error', (error: Error) => {
      up.set(0)
      app.log.warn({ event: 'redis_error', err: error.message }, 'redis error')
    })
    // REST works without Redis (the in-process cache, a rate limit that fails open): reported, not unready
    app.readiness.report('redis', () => redis.status)
    app.addHook('onClose', async () => {
      redis.disconnect()
    })
  },
  { name: 'redis', dependencies: ['metrics', 'health'] },
)
