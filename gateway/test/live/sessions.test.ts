import { createHash } from 'node:crypto'
import { Redis } from 'ioredis'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CALLS, TOKEN_HEADER, WS_CLOSE, WS_ERROR } from '@tradegate/shared'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, uniquePrefix, waitFor } from './helpers'
import { SessionRegistry } from '../../src/upstream/session-registry'
import { tokenKey } from '../../src/upstream/user-resolver'

// Sessions end by user, as the upstream ends them: a sign-out, a new login or fund password, a
// token-expired answer or a logout pushed on the feed ends the private streams of every token of
// that user on every instance with an error frame, and those tokens are refused afterwards by REST
// and new sockets on every instance without an upstream call.

const PASSWORD = 'secret-pass'
const isError = (code: number) => (frame: Frame) => frame.type === 'error' && frame.code === code
const ownCoins = (client: TestClient) => client.frames.filter((frame) => frame.type === 'OWNCOIN').length
const resyncs = (client: TestClient) => client.frames.filter((frame) => frame.type === 'resync').length

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

/** Two sessions of one user, each a socket on its own instance subscribed to the user's balance. */
interface TwoSessions {
  username: string
  userId: string
  /** the first session's token and its socket (on the first instance given) */
  first: string
  firstSocket: TestClient
  /** a second sign-in's token and its socket (on the second instance given) */
  second: string
  secondSocket: TestClient
}

describe('sessions end by user, across two instances on Redis', () => {
  let upstream: SandboxUpstream
  let a: RunningGateway
  let b: RunningGateway
  const prefix = uniquePrefix('sessions')
  const clients: TestClient[] = []
  const stamp = Date.now().toString(36)
  let users = 0

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

  /** A new user signed in twice, a socket per session on `one` and `other`, both receiving balance events. */
  async function twoSessions(one: RunningGateway, other: RunningGateway): Promise<TwoSessions> {
    const username = `user${++users}${stamp}`
    const { token: first, userId } = await upstream.register(username)
    const second = await upstream.signIn(username)
    const firstSocket = await watchBalance(one, first, userId)
    const secondSocket = await watchBalance(other, second, userId)
    const deposit = () => upstream.control('/sandbox/deposit', { userId, coin: 'usdt', amount: '3' })
    await deposit()
    // On a busy machine the lease holder may miss a renewal and hand the feed over for a moment; the
    // sockets are then told to resync, and a deposit made in that gap may reach them only through the
    // resync's lookup. A gap told that way is no loss, so the deposit is made again; one never told is.
    let toldGaps = 0
    await waitFor(async () => {
      if (ownCoins(firstSocket) >= 1 && ownCoins(secondSocket) >= 1) return true
      const told = resyncs(firstSocket) + resyncs(secondSocket)
      if (told > toldGaps) {
        toldGaps = told
        await deposit()
      }
      return false
    }, 'a balance event on both').catch((error: Error) => {
      // what each socket got and who read the feed: a lost event and its cause, in the failure itself
      const types = (client: TestClient) => client.frames.map((frame) => frame.type).join(',')
      const lease = (gateway: RunningGateway) =>
        `leader ${gateway.app.live.lease?.leader}, reachable ${gateway.app.live.lease?.reachable}`
      throw new Error(
        `${error.message}; frames [${types(firstSocket)}] and [${types(secondSocket)}]; ` +
          `${one === a ? 'a' : 'b'} first (${lease(one)}), other (${lease(other)}); feed sockets ${upstream.feedSockets}`,
      )
    })
    return { username, userId, first, firstSocket, second, secondSocket }
  }

  /** Both tokens refused by both instances, on REST and by new sockets, without asking the upstream. */
  async function expectRefusedEverywhere(tokens: string[]): Promise<void> {
    const before = await upstream.callCount(CALLS.userInfo.path)
    for (const gateway of [a, b]) {
      for (const token of tokens) {
        const response = await fetch(`http://127.0.0.1:${gateway.port}${CALLS.userInfo.path}`, {
          headers: { [TOKEN_HEADER]: token },
        })
        expect(response.status).toBe(401)
        expect(await response.json()).toMatchObject({ msg: 'signInRequired' })
        const late = await connectClient(gateway.socketUrl())
        clients.push(late)
        late.send({ operation: 'auth', satoken: token })
        expect(await late.next(isError(WS_ERROR.sessionEnded))).toMatchObject({ msg: 'sessionEnded' })
      }
    }
    expect(await upstream.callCount(CALLS.userInfo.path)).toBe(before)
  }

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    // the fund password is set without a code here: the test is about what its change ends
    await upstream.control('/sandbox/settings', { VERIFY_CODE_SETTING: { withdrawPassword: false } })
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

  const endings: Record<string, (via: RunningGateway, token: string) => Promise<{ code: number | string }>> =
    {
      'a sign-out': (via, token) => call(via, 'POST', CALLS.loginOut.path, token),
      'a new login password': (via, token) =>
        call(via, 'POST', `${CALLS.updateUserLoginPwd.path}?oldPwd=${PASSWORD}&newPwd=secret-pass-2`, token),
      'a new fund password': async (via, token) => {
        // the default settings ask for a code to the bound e-mail, set and change alike
        const email = `sessions${Date.now().toString(36)}@example.com`
        const code = async (codeType: string) => {
          const query = `codeType=${codeType}&email=${encodeURIComponent(email)}`
          await fetch(new URL(`${CALLS.sendEmailCode.path}?${query}`, upstream.url), { method: 'POST' })
          const answer = await fetch(
            new URL(`/sandbox/last-code?to=${encodeURIComponent(email)}`, upstream.url),
          )
          return ((await answer.json()) as { data: { code: string } }).data.code
        }
        const bound = await call(
          via,
          'POST',
          `${CALLS.bindEmail.path}?email=${email}&emailCode=${await code('bind')}`,
          token,
        )
        expect(bound).toMatchObject({ code: 200 })
        const setQuery = `pwd=fund-pass-1&code=${await code('fundPassword')}`
        expect(await call(via, 'POST', `${CALLS.tardPwdSet.path}?${setQuery}`, token)).toMatchObject({
          code: 200,
        })
        const changeQuery = `oldPwd=fund-pass-1&newPwd=fund-pass-2&signType=fund&code=${await code('fundPassword')}`
        return call(via, 'POST', `${CALLS.updatePwd.path}?${changeQuery}`, token)
      },
    }

  it.each(Object.keys(endings))(
    'ends both sessions of a user on both instances after %s made through one of them',
    async (ending) => {
      const user = await twoSessions(a, b)
      expect(await endings[ending]!(a, user.first)).toMatchObject({ code: 200 })
      // the other instance's socket, with the other token, is told too, and streams nothing private
      for (const socket of [user.firstSocket, user.secondSocket])
        expect(await socket.next(isError(WS_ERROR.sessionEnded))).toMatchObject({ msg: 'sessionEnded' })
      expect(a.app.live.hub.subscriberCount(`USER:${user.userId}`)).toBe(0)
      expect(b.app.live.hub.subscriberCount(`USER:${user.userId}`)).toBe(0)
      await settled(user.secondSocket)
      expect(user.secondSocket.frames.filter(isError(WS_ERROR.sessionEnded))).toHaveLength(1)
      expect(user.secondSocket.ws.readyState).toBe(user.secondSocket.ws.OPEN)
      await expectRefusedEverywhere([user.first, user.second])
      // a new sign-in afterwards works
      const fresh = await upstream.signIn(
        user.username,
        ending === 'a new login password' ? 'secret-pass-2' : PASSWORD,
      )
      await watchBalance(b, fresh, user.userId)
    },
  )

  it("ends both sessions by the password change's answer alone, while the upstream's feed carries nothing", async () => {
    const user = await twoSessions(a, b)
    // the sandbox pushes a logout on its feed too; paused, it sends none, so only the answer tells
    await upstream.pauseFeed()
    try {
      expect(await endings['a new login password']!(b, user.second)).toMatchObject({ code: 200 })
      for (const socket of [user.firstSocket, user.secondSocket])
        expect(await socket.next(isError(WS_ERROR.sessionEnded))).toMatchObject({ msg: 'sessionEnded' })
      await expectRefusedEverywhere([user.first, user.second])
    } finally {
      await upstream.resumeFeed()
    }
  })

  it('ends both sessions when the upstream pushes a logout on its feed', async () => {
    const user = await twoSessions(b, a)
    // signed out at the upstream itself: the gateway learns it only from the feed
    const response = await fetch(new URL(CALLS.loginOut.path, upstream.url), {
      method: 'POST',
      headers: { [TOKEN_HEADER]: user.first },
    })
    expect(await response.json()).toMatchObject({ code: 200 })
    for (const socket of [user.firstSocket, user.secondSocket])
      expect(await socket.next(isError(WS_ERROR.sessionEnded))).toMatchObject({ msg: 'sessionEnded' })
    await expectRefusedEverywhere([user.first, user.second])
  })

  it('refuses everywhere a token whose end only Redis carries, its notice never arriving', async () => {
    // a third instance that ends the user's session and stores it, but whose notice reaches no one:
    // what an instance that has told its sockets leaves for the others before its notice lands
    const user = await upstream.register(`carol${stamp}`)
    const redis = new Redis(REDIS_URL)
    try {
      const silent = new SessionRegistry({ redis, prefix, log: pino({ enabled: false }) })
      await waitFor(() => redis.status === 'ready', 'the third instance on Redis')
      await silent.end('revoked', { token: user.token, userId: user.userId })
      for (const gateway of [a, b]) expect(gateway.app.sessions.endedHere(tokenKey(user.token))).toBe(false)
      await expectRefusedEverywhere([user.token])
      // a call that writes and an upload, beside the one that reads: none reaches the upstream
      const before = [
        await upstream.callCount(CALLS.loginOut.path),
        await upstream.callCount(CALLS.uploadOSS.path),
      ]
      for (const gateway of [a, b]) {
        expect(await call(gateway, 'POST', CALLS.loginOut.path, user.token)).toMatchObject({
          msg: 'signInRequired',
        })
        const boundary = '----ended'
        const upload = await fetch(`http://127.0.0.1:${gateway.port}${CALLS.uploadOSS.path}`, {
          method: 'POST',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            [TOKEN_HEADER]: user.token,
          },
          body:
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="id.jpg"\r\n` +
            `Content-Type: image/jpeg\r\n\r\n${'x'.repeat(1024)}\r\n--${boundary}--\r\n`,
        })
        expect(upload.status).toBe(401)
        expect(await upload.json()).toMatchObject({ msg: 'signInRequired' })
      }
      expect([
        await upstream.callCount(CALLS.loginOut.path),
        await upstream.callCount(CALLS.uploadOSS.path),
      ]).toEqual(before)
    } finally {
      redis.disconnect()
    }
  })

  it('keeps the ended tokens in Redis as hashes with a time to live, never the tokens', async () => {
    const user = await twoSessions(a, b)
    expect(await call(b, 'POST', CALLS.loginOut.path, user.second)).toMatchObject({ code: 200 })
    await user.firstSocket.next(isError(WS_ERROR.sessionEnded))
    const admin = new Redis(REDIS_URL)
    try {
      for (const token of [user.first, user.second]) {
        const hash = createHash('sha256').update(token).digest('base64url')
        await waitFor(async () => (await admin.pttl(`${prefix}revoked:${hash}`)) > 0, 'the hash stored')
        expect(await admin.pttl(`${prefix}revoked:${hash}`)).toBeLessThanOrEqual(24 * 60 * 60 * 1000)
      }
      const keys = await admin.keys(`${prefix}*`)
      expect(keys.some((key) => key.includes(user.first) || key.includes(user.second))).toBe(false)
    } finally {
      admin.disconnect()
    }
  })

  it('ends a session on every instance when the upstream answers that its token expired', async () => {
    const bob = await upstream.register(`bob${stamp}`)
    const socket = await watchBalance(b, bob.token, bob.userId)
    await upstream.control('/sandbox/expire', { userId: bob.userId })
    const answer = await call(a, 'GET', CALLS.userInfo.path, bob.token)
    expect(['500', 401]).toContain(answer.code)
    expect(await socket.next(isError(WS_ERROR.sessionEnded), 5000)).toMatchObject({ msg: 'sessionEnded' })
    expect(b.app.live.hub.subscriberCount(`USER:${bob.userId}`)).toBe(0)
  })

  it('ends no session when a password change is refused', async () => {
    const user = await twoSessions(a, b)
    const refused = await call(
      b,
      'POST',
      `${CALLS.updatePwd.path}?oldPwd=wrong-pass&newPwd=secret-pass-2&signType=login`,
      user.second,
    )
    expect(refused).toMatchObject({ code: -1 })
    await settled(user.firstSocket)
    await settled(user.secondSocket)
    expect(
      [...user.firstSocket.frames, ...user.secondSocket.frames].some(isError(WS_ERROR.sessionEnded)),
    ).toBe(false)
    expect(a.app.live.hub.subscriberCount(`USER:${user.userId}`)).toBe(1)
    expect(b.app.live.hub.subscriberCount(`USER:${user.userId}`)).toBe(1)
  })
})

describe('socket auths and the per-client budget (in-memory bus)', () => {
  let upstream: SandboxUpstream
  let gateway: RunningGateway
  const BUDGET = 40

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
  })
  // a gateway, and so an address budget, of each test's own: one test spends the budget on purpose
  beforeEach(async () => {
    gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      RATE_LIMIT_PER_MINUTE: BUDGET,
      WS_MAX_FRAMES_PER_SECOND: 100,
    })
  })
  afterEach(() => gateway?.close())
  afterAll(() => upstream?.close())

  it('refuses an auth frame whose token REST would refuse, without asking the upstream', async () => {
    const before = await upstream.callCount(CALLS.userInfo.path)
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
      expect(await upstream.callCount(CALLS.userInfo.path)).toBe(before)
    } finally {
      await client.close()
    }
  })

  it('draws each auth from the address budget and closes a socket with 1008 on its third refused auth', async () => {
    const before = await upstream.callCount(CALLS.userInfo.path)
    const sockets = await Promise.all(Array.from({ length: 20 }, () => connectClient(gateway.socketUrl())))
    // 20 sockets x 6 made-up tokens each: 120 auths against a budget of 40 a minute, 20 of it spent on the opens
    sockets.forEach((socket, i) => {
      for (let n = 0; n < 6; n++) socket.send({ operation: 'auth', satoken: `made-up-${i}-${n}-${stamp()}` })
    })
    const closes = await Promise.all(sockets.map((socket) => socket.closed))
    for (const closed of closes)
      expect(closed).toEqual({ code: WS_CLOSE.policyViolation, reason: 'tooManyFailedAuths' })
    const calls = (await upstream.callCount(CALLS.userInfo.path)) - before
    expect(calls).toBeLessThanOrEqual(BUDGET - 20)
    // the spent budget shows as refusals, not as calls
    expect(
      sockets.flatMap((socket) => socket.frames).filter((frame) => frame.msg === 'tooManyRequests').length,
    ).toBeGreaterThan(0)
  })
})

/** How many user-info calls the sandbox has answered so far. */
function stamp(): string {
  return Math.random().toString(36).slice(2)
}
