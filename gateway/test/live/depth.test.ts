import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { DepthData } from '@tradegate/shared'
import {
  FEED_TOKEN,
  startFakeUpstream,
  upstreamDepth,
  upstreamDetail,
  type FakeUpstream,
} from './fake-upstream'
import { decodeBusMessage } from '../../src/live/bus-message'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, sleep, uniquePrefix, waitFor } from './helpers'

// The order book stream: the upstream's snapshot and numbered updates, kept as a book by the
// gateway and fanned out so that every client can follow it without a gap. A stand-in upstream
// sends the DEPTH frames, gaps included on purpose.

type Level = [string, string]

function depthOf(client: TestClient, symbol = 'btcusdt'): DepthData[] {
  return client.frames
    .filter((frame) => frame.type === 'DEPTH' && frame.symbol === symbol)
    .map((frame) => frame.data as unknown as DepthData)
}

/** What a book client can follow: a snapshot first, then each frame a snapshot or the next seq. */
function expectFollowable(frames: DepthData[]): void {
  expect(frames[0]?.snapshot).toBe(true)
  for (let i = 1; i < frames.length; i++) {
    if (frames[i]!.snapshot) continue
    if (frames[i]!.seq !== frames[i - 1]!.seq + 1)
      throw new Error(`update ${frames[i]!.seq} after ${frames[i - 1]!.seq} at frame ${i}`)
  }
}

function waitForSeq(client: TestClient, seq: number, symbol = 'btcusdt'): Promise<unknown> {
  return client.next(
    (frame) =>
      frame.type === 'DEPTH' && frame.symbol === symbol && (frame.data as { seq?: number }).seq === seq,
  )
}

// 60 levels a side, more than the 50 a snapshot carries; bid prices written with a trailing zero
const BIDS: Level[] = Array.from({ length: 60 }, (_, i) => [`${100 - i}.50`, '1'])
const ASKS: Array<[number, number]> = Array.from({ length: 60 }, (_, i) => [101 + i, 2])

async function subscribeDepth(gateway: RunningGateway, symbol = 'btcusdt'): Promise<TestClient> {
  const client = await connectClient(gateway.socketUrl())
  const before = gateway.app.live.hub.subscriberCount(`DEPTH:${symbol}`)
  client.send({ operation: 'subscribe', type: 'DEPTH', symbol })
  await waitFor(
    () => gateway.app.live.hub.subscriberCount(`DEPTH:${symbol}`) === before + 1,
    'subscribed to DEPTH',
  )
  // the book comes at once, or once the bus has read it from Redis
  await client.next((frame) => frame.type === 'DEPTH')
  return client
}

describe('DEPTH through one instance (in-memory bus)', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway
  const clients: TestClient[] = []
  const open = async (): Promise<TestClient> => {
    const client = await subscribeDepth(gateway)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it('sends the book (top 50 a side, best first) at once on subscribe, then each update in sequence', async () => {
    // the upstream lists its levels in any order; the book sorts them
    upstream.send(upstreamDepth('btcusdt', 10, true, [...BIDS].reverse(), ASKS))
    await waitFor(() => gateway.app.live.bus.snapshot('DEPTH:btcusdt').length === 1, 'book stored')
    const client = await open()
    const [snapshot] = depthOf(client)
    expect(snapshot).toMatchObject({ snapshot: true, seq: 10 })
    expect(snapshot!.bids).toHaveLength(50)
    expect(snapshot!.asks).toHaveLength(50)
    expect(snapshot!.bids[0]).toEqual(['100.5', '1'])
    expect(snapshot!.bids[49]).toEqual(['51.5', '1'])
    expect(snapshot!.asks[0]).toEqual(['101', '2'])
    expect(snapshot!.asks[49]).toEqual(['150', '2'])

    upstream.send(
      upstreamDepth(
        'btcusdt',
        11,
        false,
        [
          ['100.50', 0],
          ['100.75', '3'],
        ],
        [[101, '2.50']],
      ),
    )
    upstream.send(upstreamDepth('btcusdt', 12, false, [], [['100.9', '1']]))
    // already in the book: ignored
    upstream.send(upstreamDepth('btcusdt', 12, false, [['1', '1']], []))
    upstream.send(upstreamDepth('btcusdt', 13, false, [], [['150', '0']]))
    await waitForSeq(client, 13)
    const frames = depthOf(client)
    expect(frames.map((frame) => frame.seq)).toEqual([10, 11, 12, 13])
    expect(frames[1]).toEqual({
      snapshot: false,
      seq: 11,
      bids: [
        ['100.5', '0'],
        ['100.75', '3'],
      ],
      asks: [['101', '2.5']],
    })

    // a later subscriber starts from the book with every update applied
    const late = await open()
    const [book] = depthOf(late)
    expect(book).toMatchObject({ snapshot: true, seq: 13 })
    expect(book!.bids.slice(0, 2)).toEqual([
      ['100.75', '3'],
      ['99.5', '1'],
    ])
    expect(book!.asks.slice(0, 2)).toEqual([
      ['100.9', '1'],
      ['101', '2.5'],
    ])
    // 100.9 joined the top 50 asks and pushed 150 out
    expect(book!.asks.at(-1)).toEqual(['149', '2'])
    expect(book!.bids).toHaveLength(50)
  })

  it('drops the book on an upstream gap, asks the upstream for a snapshot, and passes the fresh one on', async () => {
    upstream.send(upstreamDepth('btcusdt', 100, true, BIDS, ASKS))
    const client = await open()
    await waitForSeq(client, 100)
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await waitFor(() => gateway.app.live.hub.subscriberCount('DETAIL:btcusdt') === 1, 'DETAIL too')
    upstream.received.length = 0

    upstream.send(upstreamDepth('btcusdt', 101, false, [['99', '5']], []))
    // 102 is lost: 103 and 104 cannot be applied
    upstream.send(upstreamDepth('btcusdt', 103, false, [['98', '5']], []))
    upstream.send(upstreamDepth('btcusdt', 104, false, [['97', '5']], []))
    // frames reach the client in the upstream's order: this one comes after anything sent for 103, 104
    upstream.send(upstreamDetail('btcusdt', 123, 5000))
    await client.next((frame) => frame.type === 'DETAIL' && frame.ts === 5000)
    expect(upstream.received).toContainEqual({ operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' })
    expect(depthOf(client).map((frame) => frame.seq)).toEqual([100, 101])
    // new subscribers meanwhile get the last book the gateway could vouch for
    const meanwhile = await open()
    expect(depthOf(meanwhile)).toMatchObject([{ snapshot: true, seq: 101 }])

    upstream.send(upstreamDepth('btcusdt', 200, true, [['90', '1']], [['91', '1']]))
    upstream.send(upstreamDepth('btcusdt', 201, false, [['90', '2']], []))
    await waitForSeq(client, 201)
    await waitForSeq(meanwhile, 201)
    const frames = depthOf(client)
    expect(frames.map((frame) => [frame.seq, frame.snapshot])).toEqual([
      [100, true],
      [101, false],
      [200, true],
      [201, false],
    ])
    expect(frames[2]).toEqual({ snapshot: true, seq: 200, bids: [['90', '1']], asks: [['91', '1']] })
    expectFollowable(depthOf(meanwhile))
  })

  it('refuses an upstream book with a bad level, and asks for a fresh snapshot', async () => {
    upstream.send(upstreamDepth('ethusdt', 1, true, [['10', '1']], [['11', '1']]))
    const client = await subscribeDepth(gateway, 'ethusdt')
    clients.push(client)
    await waitForSeq(client, 1, 'ethusdt')
    upstream.received.length = 0
    // a negative quantity is no level: the update is not passed on and the book waits for a snapshot
    upstream.send(upstreamDepth('ethusdt', 2, false, [['10', '-1']], []))
    upstream.send(upstreamDepth('ethusdt', 3, false, [['10', '2']], []))
    await waitFor(() => upstream.received.length > 0, 'a snapshot asked for')
    expect(upstream.received).toEqual([{ operation: 'subscribe', type: 'DEPTH', symbol: 'ethusdt' }])
    upstream.send(upstreamDepth('ethusdt', 7, true, [['10', '4']], [['11', '1']]))
    await waitForSeq(client, 7, 'ethusdt')
    expect(depthOf(client, 'ethusdt').map((frame) => frame.seq)).toEqual([1, 7])
  })
})

describe('DEPTH for a socket that stops reading', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    // the hard mark far away: this socket is skipped, never closed
    gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      WS_SOFT_BUFFER_BYTES: 64 * 1024,
      WS_HARD_BUFFER_BYTES: 256 * 1024 * 1024,
    })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it('sends the whole book, not a gapped update, to a socket that skipped an update', async () => {
    upstream.users.set('token-dora', 'dora')
    upstream.send(upstreamDepth('btcusdt', 1, true, BIDS, ASKS))
    await waitFor(() => gateway.app.live.bus.snapshot('DEPTH:btcusdt').length === 1, 'book stored')
    const fast = await subscribeDepth(gateway)
    const slow = await subscribeDepth(gateway)
    slow.send({ operation: 'auth', satoken: 'token-dora' })
    slow.send({ operation: 'subscribe', type: 'POSITION' })
    await waitFor(() => gateway.app.live.hub.subscriberCount('USER:dora') === 1, 'slow has user events')
    const socket = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket
    socket.pause()
    // big user events fill the slow socket's buffers; book updates keep coming meanwhile
    const big = { rows: 'x'.repeat(40_000) }
    let seq = 1
    for (let i = 0; i < 300; i++) {
      upstream.send({ type: 'POSITION', userId: 'dora', ts: 1000 + i, data: big })
      if (i % 5 === 0) {
        seq++
        upstream.send(upstreamDepth('btcusdt', seq, false, [[String(50 + (seq % 40)), String(seq)]], []))
        // paced like a live feed, so the slow socket's backlog grows turn by turn
        await sleep(2)
      }
    }
    await waitForSeq(fast, seq)
    const metrics = (await gateway.app.inject('/metrics')).body
    expect(metrics).toMatch(/^gateway_ws_dropped_total\{reason="conflated"[^}]*\} [1-9]/m)
    expect(gateway.app.live.connections).toBe(2)

    socket.resume()
    await waitFor(
      () => slow.frames.filter((frame) => frame.type === 'POSITION').length === 300,
      'the slow socket reads its backlog',
      20_000,
    )
    const skipped = depthOf(slow).at(-1)!.seq
    expect(skipped).toBeLessThan(seq)
    upstream.send(upstreamDepth('btcusdt', seq + 1, false, [['100.6', '1']], []))
    upstream.send(upstreamDepth('btcusdt', seq + 2, false, [['100.7', '1']], []))
    await waitForSeq(slow, seq + 2)
    const frames = depthOf(slow)
    expectFollowable(frames)
    // it got the book at the first update after it caught up, then the stream again
    expect(frames.at(-2)).toMatchObject({ snapshot: true, seq: seq + 1 })
    expect(frames.at(-2)!.bids[0]).toEqual(['100.6', '1'])
    expect(frames.at(-1)).toMatchObject({ snapshot: false, seq: seq + 2 })
    // the socket that kept up got every update and no second book
    await waitForSeq(fast, seq + 2)
    expect(depthOf(fast).map((frame) => frame.seq)).toEqual(Array.from({ length: seq + 2 }, (_, i) => i + 1))
    expectFollowable(depthOf(fast))
    await Promise.all([fast.close(), slow.close()])
  }, 40_000)
})

describe('DEPTH through two instances on Redis', () => {
  let upstream: FakeUpstream
  const gateways: RunningGateway[] = []
  const clients: TestClient[] = []
  const prefix = uniquePrefix('live-depth')

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    const common = {
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      FEED_LEASE_MS: 1500,
    }
    gateways.push(await startGateway({ ...common, INSTANCE_ID: 'depth-a' }))
    await waitFor(() => gateways[0]!.app.live.feed.connected, 'the first instance holds the feed')
    gateways.push(await startGateway({ ...common, INSTANCE_ID: 'depth-b' }))
    await waitFor(() => gateways[1]!.app.live.lease?.otherHolderSeenAt !== 0, 'the second one follows')
  })
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()))
    for (const gateway of gateways) await gateway.close()
    await upstream.close()
    await deleteKeys(prefix)
  })

  const open = async (gateway: RunningGateway): Promise<TestClient> => {
    const client = await subscribeDepth(gateway)
    clients.push(client)
    return client
  }

  it('gives clients on both instances the same book and the same sequence, through a gap and its resync', async () => {
    const [leader, follower] = gateways as [RunningGateway, RunningGateway]
    expect(follower.app.live.lease?.leader).toBe(false)
    upstream.send(upstreamDepth('btcusdt', 1, true, BIDS, ASKS))
    for (let seq = 2; seq <= 5; seq++)
      upstream.send(upstreamDepth('btcusdt', seq, false, [[String(90 + seq), String(seq)]], []))
    await waitFor(async () => (await storedSeq(prefix)) === 5, 'the leader stored the book after 5 updates')
    // the follower has no copy of its own yet: it reads the stored book from Redis
    const onFollower = await open(follower)
    const onLeader = await open(leader)
    expect(depthOf(onFollower)).toEqual(depthOf(onLeader))
    expect(depthOf(onFollower)[0]).toMatchObject({ snapshot: true, seq: 5 })

    for (let seq = 6; seq <= 30; seq++)
      upstream.send(
        upstreamDepth('btcusdt', seq, false, [[String(60 + seq), String(seq)]], [[String(200 - seq), '1']]),
      )
    await Promise.all([waitForSeq(onFollower, 30), waitForSeq(onLeader, 30)])
    expect(depthOf(onFollower)).toEqual(depthOf(onLeader))
    expect(depthOf(onFollower).map((frame) => frame.seq)).toEqual(Array.from({ length: 26 }, (_, i) => i + 5))

    // the follower kept its own copy from the updates: a new subscriber there gets the leader's book
    const lateFollower = await open(follower)
    const lateLeader = await open(leader)
    expect(depthOf(lateFollower)).toEqual(depthOf(lateLeader))
    expect(depthOf(lateFollower)[0]).toMatchObject({ snapshot: true, seq: 30 })

    // a gap upstream: both instances' clients keep the book until the fresh snapshot, then follow it
    upstream.received.length = 0
    upstream.send(upstreamDepth('btcusdt', 32, false, [['1', '1']], []))
    await waitFor(() => upstream.received.length === 1, 'the leader asks for a snapshot')
    upstream.send(upstreamDepth('btcusdt', 500, true, [['80', '1']], [['81', '1']]))
    upstream.send(upstreamDepth('btcusdt', 501, false, [['80', '3']], []))
    for (const client of [onFollower, onLeader, lateFollower, lateLeader]) await waitForSeq(client, 501)
    for (const client of [onFollower, onLeader, lateFollower, lateLeader]) {
      const frames = depthOf(client)
      expectFollowable(frames)
      expect(frames.at(-2)).toEqual({ snapshot: true, seq: 500, bids: [['80', '1']], asks: [['81', '1']] })
      expect(frames.some((frame) => frame.seq === 32)).toBe(false)
    }
    const again = await open(follower)
    expect(depthOf(again)).toEqual([{ snapshot: true, seq: 501, bids: [['80', '3']], asks: [['81', '1']] }])
  })
})

/** seq of the btcusdt book stored in Redis, -1 without one */
async function storedSeq(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 })
  try {
    const stored = await redis.getBuffer(`${prefix}snap:DEPTH:btcusdt`)
    const message = stored && decodeBusMessage(stored)
    return message ? (JSON.parse(message.frame.toString()) as { data: DepthData }).data.seq : -1
  } finally {
    redis.disconnect()
  }
}
