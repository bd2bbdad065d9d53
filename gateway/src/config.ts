import { hostname } from 'node:os'
import { Type } from 'typebox'
import { EnvSettingError, readEnvSettings, type EnvSettings, type SettingsOf } from '@tradegate/shared'
import type { TrustFunction } from './lib/request-id'

// Every setting the gateway reads from the environment, with its default; read once at start, by
// the same reader as the sandbox's (shared/src/env-settings.ts).

const Port = Type.Integer({ minimum: 0, maximum: 65535 })
const Positive = Type.Integer({ minimum: 1 })
const Url = Type.String({ pattern: '^(https?|wss?)://[^\\s]+$' })

const SETTINGS = {
  PORT: { schema: Port, default: 8080 },
  HOST: { schema: Type.String({ minLength: 1 }), default: '0.0.0.0' },
  UPSTREAM_URL: { schema: Url, default: 'http://127.0.0.1:8081' },
  FEED_TOKEN: { schema: Type.String({ minLength: 8 }), default: 'sandbox-feed-token' },
  /** comma list of origins allowed to open sockets; empty allows only the gateway's own host */
  ALLOWED_ORIGINS: { schema: Type.String(), default: '' },
  /** false, true, a hop count, or a comma list of trusted addresses */
  TRUST_PROXY: { schema: Type.String(), default: 'false' },
  /** empty disables the operator calls */
  ADMIN_TOKEN: { schema: Type.String(), default: '' },
  /** serves /metrics on a listener of its own at this port, and the public port answers 404 for it; 0: off */
  METRICS_PORT: { schema: Port, default: 0 },
  /** when set, /metrics answers only to `Authorization: Bearer <token>`; empty: no token */
  METRICS_TOKEN: { schema: Type.String({ minLength: 16 }), default: '' },
  /** redis://host:port, a comma list or redis-cluster://host:port,... for a cluster; empty keeps everything in memory */
  REDIS_URL: { schema: Type.String(), default: '' },
  /** prefix of every Redis key and channel, so deployments and test runs can share one Redis */
  REDIS_PREFIX: { schema: Type.String({ pattern: '^[A-Za-z0-9:_-]{1,64}$' }), default: 'tradegate:' },
  LOG_LEVEL: {
    schema: Type.Union([
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ]),
    default: 'info',
  },
  INSTANCE_ID: {
    schema: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }),
    default: `${hostname()}-${process.pid}`,
  },
  WEB_DIST: { schema: Type.String(), default: new URL('../../web/dist', import.meta.url).pathname },

  UPSTREAM_CONNECT_TIMEOUT_MS: { schema: Positive, default: 3000 },
  /** how long a call waits for the upstream's answer; a call may set its own (`timeoutMs` in the call table) */
  UPSTREAM_TIMEOUT_MS: { schema: Positive, default: 15_000 },
  UPSTREAM_GET_RETRIES: { schema: Type.Integer({ minimum: 0, maximum: 5 }), default: 2 },
  /** failed attempts in a row (calls refused or timed out, probes unanswered) before calls are refused at once */
  UPSTREAM_BREAKER_FAILURES: { schema: Positive, default: 3 },

  /** bodies of requests outside the call table; each call's own limit comes from the table */
  BODY_LIMIT_BYTES: { schema: Positive, default: 16 * 1024 },
  UPLOAD_LIMIT_BYTES: { schema: Positive, default: 5 * 1024 * 1024 },
  HEADER_LIMIT_BYTES: { schema: Positive, default: 16 * 1024 },
  QUERY_MAX_PARAMS: { schema: Positive, default: 50 },
  BODY_MAX_DEPTH: { schema: Positive, default: 32 },
  /** keys plus array items in one JSON body, or pairs in one form body, counted before parsing */
  BODY_MAX_MEMBERS: { schema: Positive, default: 64 },
  HEADERS_TIMEOUT_MS: { schema: Positive, default: 10_000 },
  REQUEST_TIMEOUT_MS: { schema: Positive, default: 90_000 },
  RATE_LIMIT_PER_MINUTE: { schema: Positive, default: 1200 },
  /** uploads per client per minute, a budget of their own on top of the general one */
  UPLOAD_RATE_PER_MINUTE: { schema: Positive, default: 10 },
  /** uploads per user per minute, beside the per-address budget: one user may come from many addresses */
  UPLOAD_RATE_PER_USER_PER_MINUTE: { schema: Positive, default: 10 },
  /** uploads in flight at once from one address, and from one user */
  UPLOADS_IN_FLIGHT_PER_CLIENT: { schema: Positive, default: 2 },
  /** uploads in flight at once on one instance: each streams to the upstream, holding its stream's window */
  UPLOADS_IN_FLIGHT: { schema: Positive, default: 8 },
  /**
   * an upload answered before its body has all arrived has the rest read and dropped, so its sender reads
   * the answer; a sender silent this long meanwhile is cut, and any after UPLOAD_DRAIN_MAX_MS in all
   */
  UPLOAD_DRAIN_IDLE_MS: { schema: Positive, default: 10_000 },
  UPLOAD_DRAIN_MAX_MS: { schema: Positive, default: 60_000 },
  /** past this event-loop delay new requests get 503 with Retry-After; 0 sheds nothing */
  MAX_EVENT_LOOP_DELAY_MS: { schema: Type.Integer({ minimum: 0 }), default: 1000 },
  CACHE_MAX_ENTRIES: { schema: Positive, default: 2000 },
  /**
   * how long past its stale window a cached list (coins, symbols, settings, content) is still sent
   * while the upstream fails to answer (stale-if-error); 0: only within the stale window
   */
  CACHE_STALE_IF_ERROR_MS: { schema: Type.Integer({ minimum: 0 }), default: 6 * 60 * 60 * 1000 },

  WS_MAX_PAYLOAD_BYTES: { schema: Positive, default: 4096 },
  WS_MAX_SUBSCRIPTIONS: { schema: Positive, default: 200 },
  WS_MAX_FRAMES_PER_SECOND: { schema: Positive, default: 20 },
  WS_MAX_SOCKETS_PER_IP: { schema: Positive, default: 100 },
  /** topics one instance serves, so bus channels it subscribes, at most */
  WS_MAX_TOPICS: { schema: Positive, default: 5000 },
  WS_SOFT_BUFFER_BYTES: { schema: Positive, default: 64 * 1024 },
  WS_HARD_BUFFER_BYTES: { schema: Positive, default: 1024 * 1024 },
  WS_PING_INTERVAL_MS: { schema: Positive, default: 25_000 },
  FEED_SILENCE_MS: { schema: Positive, default: 10_000 },
  FEED_LEASE_MS: { schema: Positive, default: 3000 },
  SHUTDOWN_TIMEOUT_MS: { schema: Positive, default: 8000 },
  /** time between /readyz turning 503 and the listener closing, so load balancers stop sending */
  SHUTDOWN_DRAIN_MS: { schema: Type.Integer({ minimum: 0, maximum: 5000 }), default: 500 },
} satisfies EnvSettings
export type GatewayConfig = SettingsOf<typeof SETTINGS>

/** A setting the gateway cannot start with; the message names it. */
export class ConfigError extends EnvSettingError {}

/** Reads the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  let config: GatewayConfig
  try {
    config = readEnvSettings(SETTINGS, env)
  } catch (error) {
    if (error instanceof EnvSettingError) throw new ConfigError(error.message)
    throw error
  }
  if (config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT) {
    throw new ConfigError(`METRICS_PORT: must differ from PORT (${String(config.PORT)})`)
  }
  return config
}

export type { TrustFunction }

/**
 * TRUST_PROXY as Fastify's `trustProxy`, the one place the client address of every request,
 * socket upgrade and rate-limit key comes from: `true`, a comma list of addresses and CIDRs (or
 * proxy-addr's names such as `loopback`), or a hop count. Fastify 5 reads a bare number as
 * trusting no proxy at all, so a hop count becomes the function that trusts that many hops.
 */
export function trustProxyOption(value: string): boolean | string | TrustFunction {
  if (value === 'true') return true
  if (value === 'false' || value === '') return false
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return hops === 0 ? false : (_address, hop) => hop < hops
  }
  return value
}

/** Config for tests and embedding: the defaults with some values replaced. */
export function configWith(overrides: Partial<GatewayConfig>): GatewayConfig {
  return { ...loadConfig({}), ...overrides }
}

/** UPSTREAM_URL may be given with either scheme; REST calls need its http form. */
export function upstreamHttpUrl(url: string): string {
  return url.replace(/^ws(s?):\/\//, 'http$1://')
}

/** The feed socket needs the ws form of UPSTREAM_URL. */
export function upstreamWsUrl(url: string): string {
  return url.replace(/^http(s?):\/\//, 'ws$1://')
}
