import { expect } from 'vitest'
import { Value } from 'typebox/value'
import { WebSocket } from 'ws'
import {
  CALLS,
  FEED_TOKEN_HEADER,
  TOKEN_HEADER,
  callPath,
  type CallData,
  type CallName,
  type Envelope,
  toDecimal,
} from '@tradegate/shared'
import { startSandbox, type Sandbox, type SandboxOptions } from '../app'
import { WAIT_BOUND_MS } from '../../test/support/wait-bound'

// Test helpers: a sandbox on a free port, a client that calls it by call name, feed sockets.

export const FEED_TOKEN = 'test-feed-token'

export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({
    seed: 42,
    tickMs: 50,
    feedToken: FEED_TOKEN,
    secondPeriodSeconds: [1, 2],
    ...options,
  })
}

export interface CallInput {
  query?: Record<string, string>
  body?: unknown
  params?: Record<string, string | number>
  form?: FormData
}

export class Client {
  token: string | undefined
  /** sent as the language header, as the gateway forwards the page's language */
  language: string | undefined

  constructor(readonly baseUrl: string) {}

  /** Calls the sandbox; every successful answer is checked against the call's data schema. */
  async call<N extends CallName>(name: N, input: CallInput = {}): Promise<Envelope<CallData<N>>> {
    const call = CALLS[name]
    const url = new URL(callPath(name, input.params), this.baseUrl)
    for (const [key, value] of Object.entries(input.query ?? {})) url.searchParams.set(key, value)
    const headers: Record<string, string> = {}
    if (this.token) headers[TOKEN_HEADER] = this.token
    if (this.language) headers.language = this.language
    let body: string | FormData | undefined
    if (input.form) body = input.form
    else if (input.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(input.body)
    }
    const response = await fetch(url, {
      method: call.method,
      headers,
      ...(body !== undefined ? { body } : {}),
    })
    expect(response.status, `${name} HTTP status`).toBe(200)
    const envelope = (await response.json()) as Envelope<CallData<N>>
    if (envelope.code === 200) {
      const errors = Value.Errors(call.data, envelope.data)
      expect(errors, `${name} data must match its schema`).toEqual([])
    }
    return envelope
  }

  /** The data of a call that must succeed. */
  async ok<N extends CallName>(name: N, input: CallInput = {}): Promise<CallData<N>> {
    const envelope = await this.call(name, input)
    expect(envelope, `${name} should succeed`).toMatchObject({ code: 200 })
    return envelope.data as CallData<N>
  }

  /** The refusal message of a call that must be refused. */
  async refused(name: CallName, input: CallInput = {}): Promise<string> {
    const envelope = await this.call(name, input)
    expect(envelope.code, `${name} should be refused, got ${JSON.stringify(envelope)}`).toBe(-1)
    return envelope.msg
  }

  async control<T = unknown>(path: string, body?: unknown, method: 'GET' | 'POST' = 'POST'): Promise<T> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    })
    const envelope = (await response.json()) as Envelope<T>
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${envelope.msg}`)
    return envelope.data as T
  }
}

/**
 * Sets a contract pair's price tick after tick until its mark price, a moving average of the index,
 * has come to it: what a market that stays at a price does, where one set price is only a wick.
 */
export async function holdPrice(control: Client, symbol: string, price: string): Promise<void> {
  for (let tick = 0; tick < 200; tick++) {
    await control.control('/sandbox/price', { symbol, price })
    const { markPrice } = await control.ok('contractMarkInfo', { query: { symbol } })
    if (toDecimal(markPrice).equals(price)) return
  }
  throw new Error(`the mark of ${symbol} did not come to ${price}`)
}

let nameCounter = 0
export function uniqueName(prefix = 'user'): string {
  nameCounter++
  return `${prefix}${Date.now().toString(36)}${nameCounter}`
}

/** Registers an ordinary-account user with the root invite code and signs the client in. */
export async function registeredClient(sandbox: Sandbox, username = uniqueName()): Promise<Client> {
  const client = new Client(sandbox.url)
  const session = await client.ok('register', {
    body: { type: 'account', username, password: 'secret-pass', inviteCode: sandbox.inviteCode },
  })
  client.token = session.satoken
  return client
}

/** A registered client (see registeredClient) whose platform account got `deposits`, e.g. { usdt: '1000' }. */
export async function fundedClient(sandbox: Sandbox, deposits: Record<string, string>): Promise<Client> {
  const client = await registeredClient(sandbox)
  const { username } = await client.ok('userInfo')
  for (const [coin, amount] of Object.entries(deposits))
    await client.control('/sandbox/deposit', { username, coin, amount })
  return client
}

/**
 * Binds an e-mail to the client's account (unless one is) and sets its fund password with a code sent there, as the
 * default verification settings ask. Returns the e-mail, where later codes go.
 */
export async function withFundPassword(client: Client, pwd = 'fund-pass'): Promise<string> {
  const bound = (await client.ok('userInfo')).email
  const email = bound ?? `${uniqueName('fund')}@example.com`
  const lastCode = async () =>
    (
      await client.control<{ code: string }>(
        `/sandbox/last-code?to=${encodeURIComponent(email)}`,
        undefined,
        'GET',
      )
    ).code
  if (!bound) {
    await client.ok('sendEmailCode', { query: { codeType: 'bind', email } })
    await client.ok('bindEmail', { query: { email, emailCode: await lastCode() } })
  }
  await client.ok('sendEmailCode', { query: { codeType: 'fundPassword', email } })
  await client.ok('tardPwdSet', { query: { pwd, code: await lastCode() } })
  return email
}

export interface FeedSocket {
  socket: WebSocket
  frames: Array<Record<string, unknown>>
  /** resolves with the first frame (already received or still to come) that matches */
  next(
    match: (frame: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>
  close(): Promise<void>
}

export async function openFeed(sandbox: Sandbox, asGateway: boolean): Promise<FeedSocket> {
  const socket = new WebSocket(
    `${sandbox.url.replace('http', 'ws')}/ws/test-${Math.random().toString(36).slice(2)}`,
    {
      headers: asGateway ? { [FEED_TOKEN_HEADER]: FEED_TOKEN } : {},
      perMessageDeflate: false,
    },
  )
  const frames: Array<Record<string, unknown>> = []
  const waiters = new Set<() => void>()
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Record<string, unknown>)
    for (const wake of waiters) wake()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  return {
    socket,
    frames,
    next(match, timeoutMs = WAIT_BOUND_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match)
          if (!found) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error('no matching frame in time'))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    close() {
      if (socket.readyState === socket.CLOSED) return Promise.resolve()
      return new Promise((resolve) => {
        socket.once('close', () => resolve())
        socket.terminate()
      })
    },
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Polls until the check passes or the time runs out. The bound is the suite's usual one: it only
 * matters when the test fails, and 5 s ran out on a loaded machine before a timed settlement ran.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = WAIT_BOUND_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await sleep(25)
  }
}
