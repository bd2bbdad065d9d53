import { createHash } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CALLS, TOKEN_HEADER, WS_CLOSE, WS_ERROR } from '@tradegate/shared'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, uniquePrefix, waitFor } from './helpers'

// Sessions that end: a sign-out, a token-expired answer or a new login password, made through one
// instance, end that session's private streams on every instance with an error frame, and the
// token is refused afterwards, on every instance.

const PASSWORD = 'secret-pass'
const isError = (code: number) => (frame: Frame) => frame.type === 'error' && frame.code === code
const ownCoins = (client: TestClient) => client.frames.filter((frame) => frame.type === 'OWNCOIN').length

/** A further session for a registered user, as a second device would sign in. */
async function signIn(upstream: SandboxUpstream, username: string): Promise<string> {
  const response = await fetch(new URL(CALLS.login.path, upstream.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  })
  return ((await response.json()) as { data: { satoken: string } }).data.satoken
}

/** A call through a gateway's REST path, as the browser makes it. */
async function call(
  gateway: RunningGateway,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  token: string,
): Promise<{ code: number | string; msg: string }> {
  const response = await fetch(`http://127.0.0.1:${gateway.port}${pathAndQuery}`, {
    method,
    headers: { [TOKEN_HEADER]: token },
  })
  return (await response.json()) as { code: number | string; msg: string }
}

/** Everything a socket was sent before now: the answer to a heartbeat comes after it. */
async function settled(client: TestClient): Promise<void> {
  const heartbeats = client.frames.filter((frame) => frame.type === 'HEARTBEAT').length
  client.send({ operation: 'heartbeat' })
  await waitFor(
    () => client.frames.filter((frame) => frame.type === 'HEARTBEAT').length > heartbeats,
    'heartbeat answer',
  )
}

describe('sessions that end, across two instances on Redis', () => {
  let upstream: SandboxUpstream
  let a: RunningGateway
  let b: RunningGateway
  const prefix = uniquePrefix('sessions')
  const clients: TestClient[] = []
  const stamp = Date.now().toString(36)

  /** A socket on `gateway` signed in with `token` and subscribed to its balance events. */
  async function watchBalance(gateway: RunningGateway, token: string, userId: string): Promise<TestClient> {
    const client = await connectClient(gateway.socketUrl())
    clients.push(client)
    const before = gateway.app.live.hub.subscriberCount(`USER:${userId}`)
    client.send({ operation: 'auth', satoken: token })
    client.send({ operation: 'subscribe', type: 'OWNCOIN' })
    await waitFor(
      () => gateway.app.live.hub.subscriberCount(`USER:${userId}`) === before + 1,
      'balance subscription',
    )
    return client
  }

  const deposit = (userId: string) =>
    upstream.control('/sandbox/deposit', { userId, coin: 'usdt', amount: '3' })

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    const common = { UPSTREAM_URL: upstream.url, FEED_TOKEN, REDIS_URL, REDIS_PREFIX: prefix }
    a = await startGateway({ ...common, INSTANCE_ID: 'gw-a' })
    b = await startGateway({ ...common, INSTANCE_ID: 'gw-b' })
    await waitFor(
      () => [a, b].filter((g) => g.app.live.lease?.leader).length === 1 && upstream.feedSockets === 1,
      'one instance reading the feed',
    )
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await upstream?.close()
    await deleteKeys(prefix)
  })

  it('ends a signed-out session on the other instance before its next event and refuses its token everywhere', async () => {
    // the socket on the instance that follows the feed over Redis, the sign-out through the other
    const [leader, follower] = a.app.live.lease?.leader ? [a, b] : [b, a]
    const alice = await upstream.register(`alice${stamp}`)
    const otherDevice = await signIn(upstream, `alice${stamp}`)
    const signedOut = await watchBalance(follower, alice.token, alice.userId)
    signedOut.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    const stillIn = await watchBalance(follower, otherDevice, alice.userId)
    await deposit(alice.userId)
    await waitFor(() => ownCoins(signedOut) === 1 && ownCoins(stillIn) === 1, 'a balance event on both')

    expect(await call(leader, 'POST', CALLS.loginOut.path, alice.token)).toMatchObject({ code: 200 })
    // pushed at once: the next balance event reaches the other device's session only, and the
    // signed-out socket has been told before it
    await deposit(alice.userId)
    await waitFor(() => ownCoins(stillIn) === 2, 'the next balance event on the session still signed in')
    await settled(signedOut)
    expect(ownCoins(signedOut)).toBe(1)
    expect(signedOut.frames.filter(isError(WS_ERROR.sessionEnded))).toEqual([
      { type: 'error', code: WS_ERROR.sessionEnded, msg: 'sessionEnded' },
    ])
    expect(follower.app.live.hub.subscriberCount(`USER:${alice.userId}`)).toBe(1)
    // market streams go on on the same socket
    const details = signedOut.frames.filter((frame) => frame.type === 'DETAIL').length
    await waitFor(
      () => signedOut.frames.filter((frame) => frame.type === 'DETAIL').length > details,
      'market frames after the sign-out',
    )
    expect(signedOut.ws.readyState).toBe(signedOut.ws.OPEN)

    // the token is refused by new sockets on both instances
    for (const gateway of [a, b]) {
      const late = await connectClient(gateway.socketUrl())
      clients.push(late)
      late.send({ operation: 'auth', satoken: alice.token })
      late.send({ operation: 'subscribe', type: 'OWNCOIN' })
      expect(await late.next(isError(WS_ERROR.sessionEnded))).toMatchObject({ msg: 'sessionEnded' })
      expect(await late.next(isError(WS_ERROR.notAuthorised))).toMatchObject({ msg: 'notAuthorised' })
    }

    // Redis holds the token's hash with a time to live, never the token
    const admin = new Redis(REDIS_URL)
    try {
      const hash = createHash('sha256').update(alice.token).digest('base64url')
      const ttl = await admin.pttl(`${prefix}revoked:${hash}`)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(24 * 60 * 60 * 1000)
      const keys = await admin.keys(`${prefix}*`)
      expect(keys.some((key) => key.includes(alice.token))).toBe(false)
    } finally {
      admin.disconnect()
    }
  })

  it('ends a session on every instance when the upstream answers that its token expired', async () => {
    const bob = await upstream.register(`bob${stamp}`)
    const socket = await watchBalance(b, bob.token, bob.userId)
    await upstream.control('/sandbox/expire', { userId: bob.userId })
    const answer = await call(a, 'GET', CALLS.userInfo.path, bob.token)
    expect(answer.code).toBe('500')
    expect(await socket.next(isError(WS_ERROR.sessionEnded), 5000)).toMatchObject({ msg: 'sessionEnded' })
    expect(b.app.live.hub.subscriberCount(`USER:${bob.userId}`)).toBe(0)
  })

  it('ends a session when its login password changes, and not when the change is refused', async () => {
    const carol = await upstream.register(`carol${stamp}`)
    const socket = await watchBalance(a, carol.token, carol.userId)
    const change = (oldPwd: string) =>
      call(
        b,
        'POST',
        `${CALLS.updatePwd.path}?oldPwd=${oldPwd}&newPwd=secret-pass-2&signType=login`,
        carol.token,
      )

    expect(await change('wrong-pass')).toMatchObject({ code: -1 })
    await settled(socket)
    expect(socket.frames.some(isError(WS_ERROR.sessionEnded))).toBe(false)
    expect(a.app.live.hub.subscriberCount(`USER:${carol.userId}`)).toBe(1)

    expect(await change(PASSWORD)).toMatchObject({ code: 200 })
    expect(await socket.next(isError(WS_ERROR.sessionEnded), 5000)).toMatchObject({ msg: 'sessionEnded' })
    expect(a.app.live.hub.subscriberCount(`USER:${carol.userId}`)).toBe(0)
  })
})

describe('socket auths and the per-client budget (in-memory bus)', () => {
  let upstream: SandboxUpstream
  let gateway: RunningGateway
  const BUDGET = 40

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      RATE_LIMIT_PER_MINUTE: BUDGET,
      WS_MAX_FRAMES_PER_SECOND: 100,
    })
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('refuses an auth frame whose token REST would refuse, without asking the upstream', async () => {
    const before = await userInfoCalls(upstream)
    const client = await connectClient(gateway.socketUrl())
    try {
      const malformed = ['%E4%B8%AD%E6%96%87', 'a token with spaces', 'short']
      for (const satoken of malformed) client.send({ operation: 'auth', satoken })
      await waitFor(() => client.frames.length === malformed.length, 'an answer per auth frame')
      expect(client.frames).toEqual(
        malformed.map(() => ({ type: 'error', code: WS_ERROR.badFrame, msg: 'invalidToken' })),
      )
      // the same tokens in the REST header: the same rule, the same verdict
      for (const token of malformed) {
        const response = await fetch(`http://127.0.0.1:${gateway.port}${CALLS.userInfo.path}`, {
          headers: { [TOKEN_HEADER]: token },
        })
        expect(response.status).toBe(401)
        expect(await response.json()).toMatchObject({ msg: 'signInRequired' })
      }
      expect(await userInfoCalls(upstream)).toBe(before)
    } finally {
      await client.close()
    }
  })

  it('draws each auth from the address budget and closes a socket with 1008 on its third refused auth', async () => {
    const before = await userInfoCalls(upstream)
    const sockets = await Promise.all(Array.from({ length: 20 }, () => connectClient(gateway.socketUrl())))
    // 20 sockets x 6 made-up tokens each: 120 auths against a budget of 40 a minute, 20 of it spent on the opens
    sockets.forEach((socket, i) => {
      for (let n = 0; n < 6; n++) socket.send({ operation: 'auth', satoken: `made-up-${i}-${n}-${stamp()}` })
    })
    const closes = await Promise.all(sockets.map((socket) => socket.closed))
    for (const closed of closes)
      expect(closed).toEqual({ code: WS_CLOSE.policyViolation, reason: 'tooManyFailedAuths' })
    const calls = (await userInfoCalls(upstream)) - before
    expect(calls).toBeLessThanOrEqual(BUDGET - 20)
    // the spent budget shows as refusals, not as calls
    expect(
      sockets.flatMap((socket) => socket.frames).filter((frame) => frame.msg === 'tooManyRequests').length,
    ).toBeGreaterThan(0)
  })
})

/** How many user-info calls the sandbox has answered so far. */
async function userInfoCalls(upstream: SandboxUpstream): Promise<number> {
  const response = await fetch(`${upstream.url}/sandbox/calls`)
  return ((await response.json()) as { data: Record<string, number> }).data[CALLS.userInfo.path] ?? 0
}

function stamp(): string {
  return Math.random().toString(36).slice(2)
}
