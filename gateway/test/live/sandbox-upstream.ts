import { CALLS, TOKEN_HEADER } from '@tradegate/shared'
import { startSandbox, type Sandbox } from '../../sandbox/app'
import { registerOnSandbox } from '../support/sandbox-accounts'

// The real upstream for the live tests: the sandbox on a free port, its feed ticking fast, driven
// over HTTP through its control calls like any other client would.

export const FEED_TOKEN = 'test-feed-token'

/** Symbols the sandbox lists, for tests that need several. */
export const SANDBOX_SYMBOLS = [
  'btcusdt',
  'ethusdt',
  'bnbusdt',
  'solusdt',
  'xrpusdt',
  'adausdt',
  'dogeusdt',
  'trxusdt',
]

export interface SandboxUpstream {
  sandbox: Sandbox
  url: string
  /** Sockets on the sandbox's feed; in these tests only gateways connect to it. */
  readonly feedSockets: number
  /** Gateway feed sockets the sandbox has accepted since it started, to see reconnects. */
  readonly feedConnects: number
  control<T = unknown>(path: string, body?: object): Promise<T>
  pauseFeed(): Promise<void>
  resumeFeed(): Promise<void>
  /** Cuts every feed socket without a closing handshake. */
  dropFeed(): Promise<void>
  /** Registers a user and returns its satoken and user id. */
  register(username: string): Promise<{ token: string; userId: string }>
  /** A further session of a registered user, as a second device signs in: its satoken. */
  signIn(username: string, password?: string): Promise<string>
  /** How many times the sandbox has answered `path` (a call's path) since it started. */
  callCount(path: string): Promise<number>
  close(): Promise<void>
}

export async function startSandboxUpstream(tickMs = 50): Promise<SandboxUpstream> {
  const sandbox = await startSandbox({ seed: 7, tickMs, feedToken: FEED_TOKEN })
  let feedConnects = 0
  const addGateway = sandbox.hub.addGateway.bind(sandbox.hub)
  sandbox.hub.addGateway = (socket) => {
    feedConnects++
    addGateway(socket)
  }
  const control = async <T>(path: string, body: object = {}): Promise<T> => {
    const response = await fetch(new URL(path, sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const envelope = (await response.json()) as { code: number; msg: string; data: T }
    if (response.status !== 200 || envelope.code !== 200) throw new Error(`${path}: ${envelope.msg}`)
    return envelope.data
  }
  const call = async <T>(path: string, init: RequestInit): Promise<T> => {
    const envelope = (await (await fetch(new URL(path, sandbox.url), init)).json()) as {
      code: number
      msg: string
      data: T
    }
    if (envelope.code !== 200) throw new Error(`${path}: ${envelope.msg}`)
    return envelope.data
  }
  return {
    sandbox,
    url: sandbox.url,
    get feedSockets() {
      return sandbox.hub.socketCount
    },
    get feedConnects() {
      return feedConnects
    },
    control,
    pauseFeed: () => control('/sandbox/feed/pause'),
    resumeFeed: () => control('/sandbox/feed/resume'),
    dropFeed: () => control('/sandbox/feed/drop'),
    async register(username) {
      const token = await registerOnSandbox(sandbox.url, username)
      const info = await call<{ userId: string | number }>(CALLS.userInfo.path, {
        headers: { [TOKEN_HEADER]: token },
      })
      return { token, userId: String(info.userId) }
    },
    async signIn(username, password = 'secret-pass') {
      const session = await call<{ satoken: string }>(CALLS.login.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      })
      return session.satoken
    },
    async callCount(path) {
      return (await call<Record<string, number>>('/sandbox/calls', {}))[path] ?? 0
    },
    close: () => sandbox.close(),
  }
}
