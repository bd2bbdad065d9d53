import { CALLS } from '@tradegate/shared'
import { startSandbox } from '../sandbox/app'
import { registerOnSandbox } from './support/sandbox-accounts'

// The real sandbox as the REST tests' upstream, driven only through its HTTP control calls.

export type FaultMode = 'error' | 'hang' | 'status503'

export interface TestUpstream {
  url: string
  /** calls received per route path */
  calls(): Promise<Record<string, number>>
  /**
   * Calls made on a client's behalf. The gateway's own reads are left out: the coin list, which it
   * refreshes in the background whenever its cached copy ages (a slow run can hit that mid-test), and
   * the user info it asks once for an upload's session, before the upload's body is read.
   */
  totalCalls(): Promise<number>
  resetCalls(): Promise<void>
  /** files the sandbox holds from uploads it received whole (a call is counted when it arrives) */
  storedUploads(): Promise<number>
  fail(count: number, mode: FaultMode, path?: string): Promise<void>
  /** a new user, signed in: its session token */
  register(username: string): Promise<string>
  close(): Promise<void>
}

export async function startUpstream(): Promise<TestUpstream> {
  const sandbox = await startSandbox({ port: 0, seed: 7, tickMs: 500 })
  return controlledUpstream(sandbox.url, () => sandbox.close())
}

export function controlledUpstream(url: string, close: () => Promise<void>): TestUpstream {
  const control = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`control call ${path} answered ${response.status}`)
    const envelope = (await response.json()) as { data?: unknown }
    return envelope.data
  }
  const calls = async () => (await control('GET', '/sandbox/calls')) as Record<string, number>
  return {
    url,
    calls,
    totalCalls: async () =>
      Object.entries(await calls())
        .filter(([path]) => path !== CALLS.getCoinList.path && path !== CALLS.userInfo.path)
        .reduce((sum, [, count]) => sum + count, 0),
    resetCalls: async () => void (await control('POST', '/sandbox/calls/reset', {})),
    storedUploads: async () => ((await control('GET', '/sandbox/uploads')) as { stored: number }).stored,
    fail: async (count, mode, path) => void (await control('POST', '/sandbox/fail', { count, mode, path })),
    register: (username) => registerOnSandbox(url, username),
    close,
  }
}
