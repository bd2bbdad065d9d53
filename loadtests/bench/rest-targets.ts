/**
 * The REST targets under test. Adding one is one entry in `restTargets`: start it (pinned to
 * `ctx.serverCpus`), say which request autocannon sends, or return `{ unavailable }` with the reason.
 */
import path from 'node:path'
import { loadtestsDir, spawnTsServer } from './child-process'
import { ensureNginx, startNginxProxy } from './nginx'
import { SETTINGS_PATH } from '../baselines/fastify-route-server'

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
}

export interface RunningRestTarget {
  /** Base URL; autocannon requests `${url}${request.path}`. */
  url: string
  /** The process charged with CPU, when there is one worth measuring. */
  pid?: number
  pinned: boolean
  request: RestRequest
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

const fastifyScript = path.join(loadtestsDir, 'baselines', 'fastify-route-server.ts')
const settingsRequest: RestRequest = { method: 'GET', path: SETTINGS_PATH }

export const restTargets: RestTarget[] = [
  {
    name: 'bare fastify route',
    note: 'fixed getAllSetting bytes',
    async start(ctx) {
      const child = await spawnTsServer(fastifyScript, [], { cpus: ctx.serverCpus })
      return {
        url: `http://127.0.0.1:${child.port}`,
        pid: child.pid,
        pinned: child.pinned,
        request: settingsRequest,
        stop: child.stop,
      }
    },
  },
  {
    name: 'nginx proxy_pass',
    note: 'in front of the bare fastify route, both on the server core; later: in front of the sandbox',
    optional: true,
    async start(ctx) {
      const nginx = ensureNginx(ctx.installMissing)
      if (!nginx.ok) return { unavailable: `nginx not available: ${nginx.reason}` }
      const upstream = await spawnTsServer(fastifyScript, [], { cpus: ctx.serverCpus })
      try {
        const proxy = await startNginxProxy({
          upstreamUrl: `http://127.0.0.1:${upstream.port}`,
          cpus: ctx.serverCpus,
        })
        return {
          url: proxy.url,
          pid: proxy.pid,
          pinned: proxy.pinned,
          request: settingsRequest,
          async stop() {
            await proxy.stop()
            await upstream.stop()
          },
        }
      } catch (error) {
        await upstream.stop()
        throw error
      }
    },
  },
]
