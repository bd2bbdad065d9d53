import type { FastifyInstance } from 'fastify'
import { createRequire } from 'node:module'
import fp from 'fastify-plugin'
import type * as IoRedis from 'ioredis'
import type { Redis, Cluster, RedisOptions } from 'ioredis'

// One command connection per instance when REDIS_URL is set; its users make their own subscriber
// connections with `duplicate()`.

export type RedisClient = Redis | Cluster

const require = createRequire(import.meta.url)
/** The built gateway's own ioredis, one file beside it (build.mjs); undefined when run from source. */
declare const BUNDLED_IOREDIS: string | undefined

/**
 * ioredis, loaded when a connection is first made: an instance without REDIS_URL never runs it, and
 * loading it took about 2 MiB of an idle gateway's heap.
 */
export function ioredis(): typeof IoRedis {
  return require(typeof BUNDLED_IOREDIS === 'string' ? BUNDLED_IOREDIS : 'ioredis') as typeof IoRedis
}

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

/**
 * How often a Cluster connection reads the slot map again. ioredis does so by itself only after a
 * redirected or failed command, so a connection that sends nothing to a lost master's shard (a
 * subscriber, an idle instance) would keep naming that master long after its replica took over.
 */
export const CLUSTER_SLOTS_REFRESH_MS = 5000

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
  if (target.cluster)
    return new (ioredis().Cluster)(target.nodes, {
      redisOptions: common,
      enableOfflineQueue: false,
      slotsRefreshInterval: CLUSTER_SLOTS_REFRESH_MS,
    })
  const [node] = target.nodes
  return new (ioredis().Redis)({ ...common, host: node?.host, port: node?.port })
}

/** How often each Cluster master is pinged, so a lost one is seen even while nothing is sent to it. */
const MASTER_CHECK_MS = 2000

function nodeKey(node: Redis): string {
  return `${node.options.host}:${node.options.port}`
}

/** Whether a master answers. A promoted replica's connection may be unopened: ioredis opens them lazily. */
async function answers(node: Redis): Promise<boolean> {
  try {
    if (node.status === 'wait') await node.connect()
    await node.ping()
    return true
  } catch {
    return false
  }
}

/**
 * A Cluster connection stays `ready` while one master is gone: the slots of that master fail, the rest
 * work. Each master is pinged on its own, and the count of known and reachable masters exported.
 */
function watchClusterMasters(app: FastifyInstance, cluster: Cluster): () => void {
  const { redisMasters, redisMastersUp } = app.metrics
  let lastUnreachable = ''
  let checking = false
  const check = async (): Promise<void> => {
    if (checking || cluster.status !== 'ready') return
    checking = true
    try {
      // the slot map names every master, even one whose connection ioredis has dropped
      const known = [...new Set(cluster.slots.map((owners) => owners[0]).filter(Boolean))] as string[]
      const connected = new Map(cluster.nodes('master').map((node) => [nodeKey(node), node]))
      const reached = await Promise.all(
        known.map(async (address) => {
          const node = connected.get(address)
          return node && (await answers(node)) ? null : address
        }),
      )
      const unreachable = reached.filter((address): address is string => address !== null)
      // read the slot map now rather than at the next periodic refresh, so a replica promoted in the
      // lost master's place is pinged by the next check
      if (unreachable.length) cluster.refreshSlotsCache()
      redisMasters.set(known.length)
      redisMastersUp.set(known.length - unreachable.length)
      const key = unreachable.join(',')
      if (key === lastUnreachable) return
      lastUnreachable = key
      const fields = { known: known.length, unreachable }
      if (unreachable.length)
        app.log.warn({ event: 'redis_master_down', ...fields }, 'redis cluster master unreachable')
      else app.log.info({ event: 'redis_masters_up', ...fields }, 'every redis cluster master reachable')
    } finally {
      checking = false
    }
  }
  const timer = setInterval(() => void check(), MASTER_CHECK_MS).unref()
  cluster.on('ready', () => void check())
  return () => clearInterval(timer)
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
    const stopWatching = redis instanceof ioredis().Cluster ? watchClusterMasters(app, redis) : null
    app.addHook('onClose', async () => {
      stopWatching?.()
      redis.disconnect()
    })
  },
  { name: 'redis', dependencies: ['metrics', 'health'] },
)
