import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Writable } from 'node:stream'
import Fastify, {
  LogController,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify'
import { trustProxyOption, type GatewayConfig } from './config'
import { metricsPlugin } from './plugins/app/metrics'
import { healthPlugin } from './plugins/app/health'
import { inFlightPlugin } from './plugins/app/in-flight'
import { parseRedisUrl, redisPlugin } from './plugins/external/redis'
import { lazyRequestLogger, loggerOptions } from './plugins/app/logger'
import { errorHandlerPlugin } from './plugins/app/error-handler'
import { answerEnvelopePlugin } from './plugins/app/answer-envelope'
import { securityPlugin } from './plugins/external/security'
import { pressurePlugin } from './plugins/external/pressure'
import { rateLimitPlugin } from './plugins/app/rate-limit'
import { apiPlugin, type ApiOptions } from './api/routes'
import { upstreamPlugin, type UpstreamPluginOptions } from './upstream/plugin'
import { adminPlugin } from './api/admin'
import { livePlugin } from './live/plugin'
import { staticPlugin } from './plugins/external/static'
import { errorBody } from './lib/errors'
import { answerClientError, answerConnect } from './plugins/app/client-error'
import { socketPathPlugin } from './plugins/app/socket-path'
import { parseAllowedOrigins } from './live/upgrade-guard'
import { requestIdOf } from './lib/request-id'
import { parseQuery } from './lib/url-encoded'

export interface BuildOptions {
  /** where log lines go instead of stdout; tests read them from here */
  logStream?: Writable
  /**
   * Load shedding (503 while the event loop lags), on unless a test build turns it off: on a busy
   * machine a starved loop takes no delay samples at all, which @fastify/under-pressure counts as
   * an endless delay whatever MAX_EVENT_LOOP_DELAY_MS says.
   */
  loadShedding?: boolean
  /**
   * The cached-GET front door ahead of Fastify (api/cached-fast-path.ts), on unless a build turns it off
   * to answer every request through Fastify's lifecycle: the parity test compares the two ways.
   */
  cachedFrontDoor?: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What every HTTP request passes before Fastify: the API's cached-GET fast path, once installed. */
    frontDoor: FrontDoor
  }
}

/** Answers a request ahead of Fastify and returns true, or returns false to leave it to Fastify. */
export interface FrontDoor {
  answer(request: IncomingMessage, response: ServerResponse): boolean
}

/** Builds the gateway: registers its plugins in order, and nothing else. */
export async function buildGateway(
  config: GatewayConfig,
  build: BuildOptions = {},
): Promise<FastifyInstance> {
  const options: FastifyHttpOptions<Server> = {
    logger: loggerOptions(config, build.logStream),
    // the answer-envelope plugin writes one line per request instead of Fastify's two
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: requestIdOf,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: config.BODY_LIMIT_BYTES,
    // one strict decoder for queries and form bodies (lib/url-encoded.ts); routes refuse what it cannot read
    routerOptions: { maxParamLength: 200, querystringParser: parseQuery },
    http: {
      maxHeaderSize: config.HEADER_LIMIT_BYTES,
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      // Node checks the header and request timeouts only this often; its default is 30 s
      connectionsCheckingInterval: Math.min(1000, config.HEADERS_TIMEOUT_MS),
    },
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // a request that still arrives while the server closes is answered, not refused: a refused POST
    // could not be retried on another instance
    return503OnClosing: false,
    // malformed URLs and the like get the same error body as every other refusal
    frameworkErrors: (_error, _request, reply) =>
      (reply as FastifyReply).code(400).send(errorBody(400, 'badRequest', 'url')),
    // what Node's parser refuses (raw non-ASCII in the URL, a slow or oversized head) gets the same body too
    clientErrorHandler: answerClientError,
    forceCloseConnections: 'idle',
    // without these Fastify loads its own compilers at start: ajv and fast-json-stringify, three copies of
    // ajv between them, some 240 modules and about 3 MiB of an idle gateway's heap. The call table's
    // routes set their own validator (api/call-route.ts) and no route has a response schema.
    schemaController: {
      compilersFactory: { buildValidator: schemasRefused, buildSerializer: schemasRefused },
    },
  }
  const frontDoor: FrontDoor = { answer: () => false }
  // Fastify's own HTTP/1 server (lib/server.js), with the front door ahead of its handler
  options.serverFactory = (handler, factoryOptions) => {
    const server = createServer(factoryOptions.http ?? {}, (request, response) => {
      if (!frontDoor.answer(request, response)) handler(request, response)
    })
    server.on('connect', answerConnect)
    server.keepAliveTimeout = factoryOptions.keepAliveTimeout as number
    server.requestTimeout = factoryOptions.requestTimeout as number
    server.setTimeout(factoryOptions.connectionTimeout as number)
    return server
  }
  const app = Fastify(options)
  if (build.cachedFrontDoor !== false) app.decorate('frontDoor', frontDoor)
  app.server.headersTimeout = config.HEADERS_TIMEOUT_MS

  await app.register(metricsPlugin, {
    instance: config.INSTANCE_ID,
    redis: config.REDIS_URL !== '',
    redisCluster: config.REDIS_URL !== '' && parseRedisUrl(config.REDIS_URL).cluster,
    port: config.METRICS_PORT,
    host: config.HOST,
    token: config.METRICS_TOKEN,
  })
  await app.register(healthPlugin)
  await app.register(redisPlugin, { url: config.REDIS_URL, prefix: config.REDIS_PREFIX })
  await app.register(errorHandlerPlugin)
  await app.register(answerEnvelopePlugin)
  await app.register(inFlightPlugin)
  await app.register(securityPlugin, { allowedOrigins: parseAllowedOrigins(config.ALLOWED_ORIGINS) })
  // 0 turns shedding off: @fastify/under-pressure sheds a loop that took no delay sample at all,
  // whatever its limit, so a high limit alone does not
  if (build.loadShedding !== false && config.MAX_EVENT_LOOP_DELAY_MS > 0)
    await app.register(pressurePlugin, { maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS })
  await app.register(rateLimitPlugin, { perMinute: config.RATE_LIMIT_PER_MINUTE })
  await app.register(upstreamPlugin, upstreamOptionsOf(config))
  await app.register(apiPlugin, apiOptionsOf(config))
  await app.register(adminPlugin, { adminToken: config.ADMIN_TOKEN })
  // live sockets come before the static client and its catch-all fallback
  await app.register(socketPathPlugin)
  await app.register(livePlugin, { config })
  await app.register(staticPlugin, { root: config.WEB_DIST })
  return app
}

/** Stands in for Fastify's schema compilers: a route that brings a schema without its compiler fails at start. */
function schemasRefused(): never {
  throw new Error(
    "a route has a schema but no compiler of its own: Fastify's ajv and fast-json-stringify are not loaded",
  )
}

/** The upstream client's settings, read from the gateway's configuration. */
function upstreamOptionsOf(config: GatewayConfig): UpstreamPluginOptions {
  return {
    url: config.UPSTREAM_URL,
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    getRetries: config.UPSTREAM_GET_RETRIES,
    breakerFailures: config.UPSTREAM_BREAKER_FAILURES,
    // a socket's auth and a sign-out wait on it: bounded by the connect time, not the slow-call time
    userInfoTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS * 2,
  }
}

/** The REST path's settings, read from the gateway's configuration. */
export function apiOptionsOf(config: GatewayConfig): ApiOptions {
  return {
    cacheMaxEntries: config.CACHE_MAX_ENTRIES,
    cacheStaleIfErrorMs: config.CACHE_STALE_IF_ERROR_MS,
    queryMaxParams: config.QUERY_MAX_PARAMS,
    bodyMaxDepth: config.BODY_MAX_DEPTH,
    bodyMaxMembers: config.BODY_MAX_MEMBERS,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    uploadDrain: { idleMs: config.UPLOAD_DRAIN_IDLE_MS, maxMs: config.UPLOAD_DRAIN_MAX_MS },
    uploadsPerMinute: config.UPLOAD_RATE_PER_MINUTE,
    uploadsPerUserPerMinute: config.UPLOAD_RATE_PER_USER_PER_MINUTE,
    uploadsInFlight: {
      perClient: config.UPLOADS_IN_FLIGHT_PER_CLIENT,
      perUser: config.UPLOADS_IN_FLIGHT_PER_CLIENT,
      perInstance: config.UPLOADS_IN_FLIGHT,
    },
    trustProxy: trustProxyOption(config.TRUST_PROXY),
  }
}
