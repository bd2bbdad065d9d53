/**
 * The socket systems under test. Adding one is one entry in `socketSystems`: start it (pinned to
 * `ctx.serverCpus`), publish `ctx.scenario`'s ticks from `startTicks()`, and return the pid that does
 * the fan-out.
 */
import path from 'node:path'
import type { ClientProtocol } from './lean-client'
import type { Scenario } from './scenario'
import { loadtestsDir, spawnTsServer } from './child-process'

export interface SocketSystemContext {
  scenario: Scenario
  /** Unique per harness run; use it in Redis key and channel prefixes. */
  runId: string
  /** Cores for the server (taskset -c); undefined when pinning is unavailable. */
  serverCpus: string | undefined
  redisUrl: string
}

export interface RunningSocketSystem {
  /** The process charged with CPU and RSS: the one writing frames to the client sockets. */
  pid: number
  /** ws: base URL, clients open `${url}/<uuid>`; socket.io: the http URL. */
  url: string
  pinned: boolean
  /**
   * Starts publishing the scenario's ticks. The harness connects every client to an idle server
   * first, so the connect rate is not starved by a fan-out the server cannot keep up with.
   */
  startTicks(): Promise<void>
  stop(): Promise<void>
}

export interface SocketSystem {
  name: string
  protocol: ClientProtocol
  /** Starts the system, idle until `startTicks`; resolves when clients can connect. */
  start(ctx: SocketSystemContext): Promise<RunningSocketSystem>
}

const baseline = (file: string): string => path.join(loadtestsDir, 'baselines', file)

export const socketSystems: SocketSystem[] = [
  {
    name: 'bare ws',
    protocol: 'ws',
    async start(ctx) {
      const child = await spawnTsServer(
        baseline('bare-ws-server.ts'),
        ['--scenario', JSON.stringify(ctx.scenario), '--ticks-on-command'],
        { cpus: ctx.serverCpus },
      )
      return {
        pid: child.pid,
        url: `ws://127.0.0.1:${child.port}/ws`,
        pinned: child.pinned,
        startTicks: () => child.command({ cmd: 'start-ticks' }),
        stop: child.stop,
      }
    },
  },
  {
    name: 'socket.io + redis adapter',
    protocol: 'socket.io',
    async start(ctx) {
      const child = await spawnTsServer(
        baseline('socketio-server.ts'),
        [
          '--scenario',
          JSON.stringify(ctx.scenario),
          '--redis-url',
          ctx.redisUrl,
          '--key-prefix',
          `loadtests:${ctx.runId}:socket.io`,
          '--ticks-on-command',
        ],
        { cpus: ctx.serverCpus },
      )
      return {
        pid: child.pid,
        url: `http://127.0.0.1:${child.port}`,
        pinned: child.pinned,
        startTicks: () => child.command({ cmd: 'start-ticks' }),
        stop: child.stop,
      }
    },
  },
]
