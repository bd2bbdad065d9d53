import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS, TOKEN_HEADER, WS_ERROR } from '@tradegate/shared'
import { startRedisChild, type RedisChild } from '../support/redis-server'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { uniquePrefix, waitFor } from './helpers'

// A sign-out made while Redis is down: the instance that took it cannot tell the other one then.
// When Redis returns, the other instance ends its socket of the same user and refuses the token,
// whether through the notice kept for the bus's return or by asking the upstream about its
// sockets' tokens again. A private redis-server; the machine's is never touched.

const isEnded = (frame: Frame) => frame.type === 'error' && frame.code === WS_ERROR.sessionEnded

let redis: RedisChild
let upstream: SandboxUpstream
let a: RunningGateway
let b: RunningGateway
const clients: TestClient[] = []

async function watchBalance(gateway: RunningGateway, token: string, userId: string): Promise<TestClient> {
  const client = await connectClient(gateway.socketUrl())
  clients.push(client)
  client.send({ operation: 'auth', satoken: token })
  client.send({ operation: 'subscribe', type: 'OWNCOIN' })
  await waitFor(() => gateway.app.live.hub.subscriberCount(`USER:${userId}`) === 1, 'balance subscription')
  return client
}

beforeAll(async () => {
  redis = await startRedisChild()
  upstream = await startSandboxUpstream()
  const common = { UPSTREAM_URL: upstream.url, FEED_TOKEN, REDIS_URL: redis.url }
  const prefix = uniquePrefix('sessions-outage')
  a = await startGateway({ ...common, REDIS_PREFIX: prefix, INSTANCE_ID: 'gw-a' })
  b = await startGateway({ ...common, REDIS_PREFIX: prefix, INSTANCE_ID: 'gw-b' })
  await waitFor(() => a.app.live.bus.up && b.app.live.bus.up, 'both buses up')
})
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
  await a?.close()
  await b?.close()
  await upstream?.close()
  await redis?.kill()
})

describe('a sign-out while Redis is down', () => {
  it('ends the other instance’s session of the same user once Redis returns, and refuses its token', async () => {
    const username = `outage${Date.now().toString(36)}`
    const { token: first, userId } = await upstream.register(username)
    const second = await upstream.signIn(username)
    const onA = await watchBalance(a, first, userId)
    const onB = await watchBalance(b, second, userId)

    // the feed's logout event would tell b by itself: it is held back, so only the bus can
    await upstream.pauseFeed()
    await redis.kill()
    await waitFor(() => !a.app.live.bus.up && !b.app.live.bus.up, 'both buses down')
    const signOut = await fetch(`http://127.0.0.1:${a.port}${CALLS.loginOut.path}`, {
      method: 'POST',
      headers: { [TOKEN_HEADER]: first },
    })
    expect(await signOut.json()).toMatchObject({ code: 200 })
    expect(await onA.next(isEnded)).toMatchObject({ msg: 'sessionEnded' })
    // b has not heard: its socket still holds the session
    onB.send({ operation: 'heartbeat' })
    await onB.next((frame) => frame.type === 'HEARTBEAT')
    expect(onB.frames.some(isEnded)).toBe(false)
    expect(b.app.live.hub.subscriberCount(`USER:${userId}`)).toBe(1)

    await redis.start()
    await upstream.resumeFeed()
    expect(await onB.next(isEnded)).toMatchObject({ msg: 'sessionEnded' })
    expect(b.app.live.hub.subscriberCount(`USER:${userId}`)).toBe(0)

    // refused on b by REST and a new socket, without asking the upstream
    const before = await upstream.callCount(CALLS.userInfo.path)
    const rest = await fetch(`http://127.0.0.1:${b.port}${CALLS.userInfo.path}`, {
      headers: { [TOKEN_HEADER]: second },
    })
    expect(rest.status).toBe(401)
    expect(await rest.json()).toMatchObject({ msg: 'signInRequired' })
    const late = await connectClient(b.socketUrl())
    clients.push(late)
    late.send({ operation: 'auth', satoken: second })
    expect(await late.next(isEnded)).toMatchObject({ msg: 'sessionEnded' })
    expect(await upstream.callCount(CALLS.userInfo.path)).toBe(before)
  })
})
