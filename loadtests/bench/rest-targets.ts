/**
 * The REST targets under test. Adding one is one entry in `restTargets`: start it (pinned to
 * `ctx.serverCpus`), say which request the load generator sends, or return `{ unavailable }` with the reason.
 *
 * Every upstream is the real sandbox. The uncached call is `periodList` (POST, never cached by the
 * gateway), so the proxied row measures a full trip to the sandbox on every request.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CALLS } from '@tradegate/shared'
import { loadtestsDir, spawnTsServer } from './child-process'
import { ensureNginx, startNginxProxy } from './nginx'
import {
  ensureGatewayBundle,
  startGatewayProcess,
  startSandboxProcess,
  type GatewayOptions,
  type RunningProcessServer,
} from './gateway-processes'

export interface RestRequest {
  method: 'GET' | 'POST'
  path: string
  body?: string
  headers?: Record<string, string>
}

export interface RestTargetContext {
  runId: string
  serverCpus: string | undefined
  /** Whether a missing tool (nginx) may be installed with apt. */
  installMissing: boolean
  /**
   * One sandbox for the whole REST phase, started on first use, on the generator's core: the
   * upstream of a proxy under test must not take CPU from the proxy's core.
   */
  sandbox(): Promise<RunningProcessServer>
}

/** Where a REST phase's processes run: the server under test's cores, and the generator's. */
export type Cores = { runId: string; serverCpus: string | undefined; generatorCpus: string | undefined }

/**
 * The targets' context over a sandbox of its own on the generator's core, started on first use and
 * stopped once `work` ends.
 */
export async function withSandbox<T>(
  cores: Cores,
  options: { installMissing: boolean },
  work: (ctx: RestTargetContext) => Promise<T>,
): Promise<T> {
  let started: Promise<RunningProcessServer> | undefined
  const sandbox = (): Promise<RunningProcessServer> => (started ??= startSandboxProcess(cores.generatorCpus))
  try {
    const { runId, serverCpus } = cores
    return await work({ runId, serverCpus, installMissing: options.installMissing, sandbox })
  } finally {
    await (await started?.catch(() => undefined))?.stop()
  }
}

export interface RunningRestTarget {
  /** Base URL; the load generator requests `${url}${request.path}`. */
  url: string
  /** The process charged with CPU, when there is one worth measuring. */
  pid?: number
  pinned: boolean
  request: RestRequest
  /**
   * What a proxy target forwards to: its one-at-a-time latency is then measured in pairs with this called
   * directly, for the overhead (serial-latency.ts).
   */
  upstreamUrl?: string
  stop(): Promise<void>
}

export interface RestTarget {
  name: string
  /** Shown beside the figures: what the row measures beyond its name. */
  note?: string
  /** May report itself unavailable (a system tool is missing) instead of failing the run. */
  optional?: boolean
  start(ctx: RestTargetContext): Promise<RunningRestTarget | { unavailable: string }>
}

/** The sandbox's default feed token; the gateway needs its feed open to report ready. */
const SANDBOX_FEED_TOKEN = 'sandbox-feed-token'

export const uncachedRequest: RestRequest = {
  method: CALLS.periodList.method,
  path: CALLS.periodList.path,
  body: JSON.stringify({ symbol: 'btcusdt' }),
  headers: { 'content-type': 'application/json' },
}
export const settingsRequest: RestRequest = { method: 'GET', path: CALLS.getAllSetting.path }
export const coinListRequest: RestRequest = { method: 'GET', path: CALLS.getCoinList.path }
export const coinListBrotliRequest: RestRequest = { ...coinListRequest, headers: { 'accept-encoding': 'br' } }

/**
 * The gateway in front of the sandbox, on the server core: the bench's bundle on the in-memory bus,
 * unless `build` names another bundle, a Redis, or settings of its own.
 */
export async function startGatewayOverSandbox(
  ctx: RestTargetContext,
  request: RestRequest,
  build: Partial<Pick<GatewayOptions, 'env' | 'bundle' | 'redisUrl'>> = {},
): Promise<RunningRestTarget> {
  ensureGatewayBundle()
  const gateway = await startGatewayProcess({
    upstreamUrl: (await ctx.sandbox()).url,
    feedToken: SANDBOX_FEED_TOKEN,
    redisUrl: '',
    // a fresh gateway starts from no counters, on a Redis too
    redisPrefix: `loadtests:${ctx.runId}:${randomBytes(4).toString('hex')}:`,
    cpus: ctx.serverCpus,
    ...build,
  })
  const { pid, pinned } = gateway.process
  return { url: gateway.url, pid, pinned, request, stop: () => gateway.stop() }
}

/**
 * The proxied call through the gateway, and its floors: the bare node:http + undici proxy, and the same
 * trip from one bare Fastify route, what the gateway's path stands on before any of its own work.
 */
export const PROXIED_GATEWAY = 'gateway proxy (uncached)'
export const PROXIED_FLOOR = 'bare node proxy'
export const PROXIED_FASTIFY_FLOOR = 'bare fastify proxy'

/** The registered target of that name. */
export const restTarget = (name: string): RestTarget => restTargets.find((target) => target.name === name)!

export const restTargets: RestTarget[] = [
  {
    name: 'sandbox direct',
    note: 'uncached periodList, no gateway (its own sandbox, on the server core)',
    async start(ctx) {
      const sandbox = await startSandboxProcess(ctx.serverCpus)
      return {
        url: sandbox.url,
        pid: sandbox.process.pid,
        pinned: sandbox.process.pinned,
        request: uncachedRequest,
        stop: () => sandbox.stop(),
      }
    },
  },
  {
    name: PROXIED_GATEWAY,
    note: 'periodList through the gateway to the sandbox',
    start: async (ctx) => ({
      ...(await startGatewayOverSandbox(ctx, uncachedRequest)),
      upstreamUrl: (await ctx.sandbox()).url,
    }),
  },
  {
    name: 'nginx proxy_pass',
    note: 'periodList through Debian nginx to the sandbox',
    optional: true,
    async start(ctx) {
      const nginx = ensureNginx(ctx.installMissing)
      if (!nginx.ok) return { unavailable: `nginx not available: ${nginx.reason}` }
      const sandbox = await ctx.sandbox()
      const proxy = await startNginxProxy({ upstreamUrl: sandbox.url, cpus: ctx.serverCpus })
      return {
        url: proxy.url,
        pid: proxy.pid,
        pinned: proxy.pinned,
        request: uncachedRequest,
        upstreamUrl: sandbox.url,
        stop: proxy.stop,
      }
    },
  },
  {
    name: PROXIED_FLOOR,
    note: 'periodList through node:http and an undici pool, no checks, to the sandbox',
    start: async (ctx) =>
      startBaseline(ctx, 'node-proxy-server.ts', ['--upstream', (await ctx.sandbox()).url], uncachedRequest),
  },
  {
    name: PROXIED_FASTIFY_FLOOR,
    note: 'periodList through one bare Fastify route and an undici pool, no checks, to the sandbox',
    start: async (ctx) =>
      startBaseline(
        ctx,
        'node-proxy-server.ts',
        ['--upstream', (await ctx.sandbox()).url, '--framework', 'fastify'],
        uncachedRequest,
      ),
  },
  {
    name: 'fastify http-proxy',
    note: 'periodList through Fastify and @fastify/http-proxy, no other plugin, to the sandbox',
    start: async (ctx) =>
      startBaseline(
        ctx,
        'fastify-http-proxy-server.ts',
        ['--upstream', (await ctx.sandbox()).url],
        uncachedRequest,
      ),
  },
  {
    name: 'gateway cached getCoinList',
    note: 'served from the gateway cache, no accept-encoding',
    start: (ctx) => startGatewayOverSandbox(ctx, coinListRequest),
  },
  {
    name: 'gateway cached getCoinList br',
    note: 'served from the gateway cache, accept-encoding: br',
    start: (ctx) => startGatewayOverSandbox(ctx, coinListBrotliRequest),
  },
  {
    name: 'gateway cached getAllSetting',
    note: 'served from the gateway cache',
    start: (ctx) => startGatewayOverSandbox(ctx, settingsRequest),
  },
  {
    name: 'bare fastify route',
    note: "the sandbox's getAllSetting bytes, fixed",
    start: (ctx) => startFixedRoute(ctx, 'fastify'),
  },
  {
    name: 'bare node:http route',
    note: 'the same bytes from node:http alone, no framework: the floor of any Node route',
    start: (ctx) => startFixedRoute(ctx, 'node'),
  },
]

/** A baseline server answering the sandbox's own getAllSetting bytes, fetched once, on the server core. */
async function startFixedRoute(
  ctx: RestTargetContext,
  framework: 'fastify' | 'node',
): Promise<RunningRestTarget> {
  const sandbox = await ctx.sandbox()
  const dir = await mkdtemp(path.join(tmpdir(), 'loadtests-settings-'))
  try {
    const response = await fetch(sandbox.url + settingsRequest.path)
    if (!response.ok) throw new Error(`sandbox getAllSetting answered ${response.status}`)
    const bodyFile = path.join(dir, 'get-all-setting.json')
    await writeFile(bodyFile, Buffer.from(await response.arrayBuffer()))
    const args = ['--framework', framework, '--body-file', bodyFile]
    const baseline = await startBaseline(ctx, 'route-server.ts', args, settingsRequest)
    return {
      ...baseline,
      async stop() {
        await baseline.stop()
        await rm(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

/** One of baselines/ as a child on the server core, answering `request`. */
async function startBaseline(
  ctx: RestTargetContext,
  script: string,
  args: string[],
  request: RestRequest,
): Promise<RunningRestTarget> {
  const child = await spawnTsServer(path.join(loadtestsDir, 'baselines', script), args, {
    cpus: ctx.serverCpus,
  })
  // a proxy baseline is told its upstream
  const upstream = args.indexOf('--upstream')
  return {
    url: `http://127.0.0.1:${child.port}`,
    pid: child.pid,
    pinned: child.pinned,
    request,
    ...(upstream >= 0 ? { upstreamUrl: args[upstream + 1] } : {}),
    stop: () => child.stop(),
  }
}
