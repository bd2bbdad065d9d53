import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import type { Bus } from '../../src/live/bus'
import { publishOnTopics } from '../../src/live/bus'
import { decodeBusMessage, encodeBusMessage, type BusMessage } from '../../src/live/bus-message'
import { MemoryBus } from '../../src/live/memory-bus'
import { RedisBus } from '../../src/live/redis-bus'
import { REDIS_URL, deleteKeys, uniquePrefix, waitFor } from './helpers'
import { startRedisChild, startRedisCluster, type RedisClusterChild } from '../support/redis-server'

interface BusPair {
  /** the instance that publishes */
  publisher: Bus
  /** an instance that only subscribes: the same bus in memory, another instance over Redis */
  subscriber: Bus
  /**
   * whether what the publisher sends reaches Redis in the order sent: one connection to one Redis orders
   * its commands, where a Cluster's nodes each take theirs when they come
   */
  ordered: boolean
  close(): Promise<void>
}

const implementations: Array<{ name: string; pair(): Promise<BusPair> }> = [
  {
    name: 'memory',
    async pair() {
      const bus = new MemoryBus()
      return { publisher: bus, subscriber: bus, ordered: true, close: () => bus.close() }
    },
  },
  {
    name: 'redis',
    async pair() {
      const prefix = uniquePrefix('bus')
      const publisher = new RedisBus({ url: REDIS_URL, prefix })
      const subscriber = new RedisBus({ url: REDIS_URL, prefix })
      await waitFor(() => publisher.up && subscriber.up, 'both buses up')
      return {
        publisher,
        subscriber,
        ordered: true,
        async close() {
          await Promise.all([publisher.close(), subscriber.close()])
          await deleteKeys(prefix)
        },
      }
    },
  },
  {
    // sharded pub/sub (SSUBSCRIBE/SPUBLISH) on a throwaway three-node cluster
    name: 'redis cluster',
    async pair() {
      cluster ??= startRedisCluster()
      const { url } = await cluster
      const prefix = uniquePrefix('cbus')
      const publisher = new RedisBus({ url, prefix })
      const subscriber = new RedisBus({ url, prefix })
      await waitFor(() => publisher.up && subscriber.up, 'both buses up')
      return {
        publisher,
        subscriber,
        ordered: false,
        close: async () => void (await Promise.all([publisher.close(), subscriber.close()])),
      }
    },
  },
]

let cluster: Promise<RedisClusterChild> | undefined
afterAll(async () => (await cluster)?.stop())

/** A frame's text behind the header its ingester would write: `topic` is the concrete topic. */
function message(topic: string, frame: string, ts = 1): BusMessage {
  return { header: { topic, type: topic.split(':')[0]!, ts }, frame: Buffer.from(frame) }
}

const frameTexts = (messages: BusMessage[]): string[] => messages.map(({ frame }) => frame.toString())

/**
 * Whether a new subscriber of each topic reads the frames `expected` gives it (in any order) as its
 * snapshot: what another instance would be given now.
 */
async function newSubscriberReads(bus: Bus, expected: Record<string, string[]>): Promise<boolean> {
  const leave = await Promise.all(Object.keys(expected).map((topic) => subscribed(bus, topic, [])))
  const read = Object.entries(expected).every(
    ([topic, frames]) => frameTexts(bus.snapshot(topic)).sort().join() === [...frames].sort().join(),
  )
  for (const unsubscribe of leave) unsubscribe()
  return read
}

/** Subscribes and waits until the topic's snapshot is loaded and, over Redis, the SUBSCRIBE is in place. */
async function subscribed(bus: Bus, topic: string, into: string[]): Promise<() => void> {
  const subscription = bus.subscribe(topic, ({ frame }) => into.push(frame.toString()))
  await subscription.ready
  return subscription.unsubscribe
}

describe.each(implementations)('bus contract: $name', ({ pair }) => {
  let buses: BusPair
  afterEach(async () => buses?.close())

  it('delivers each published frame once, byte for byte, to a subscriber of its topic only', async () => {
    buses = await pair()
    const got: string[] = []
    const other: string[] = []
    await subscribed(buses.subscriber, 'DETAIL:btcusdt', got)
    await subscribed(buses.subscriber, 'DETAIL:ethusdt', other)
    const frame = '{"type":"DETAIL","symbol":"btcusdt","data":{"close":"1.5"},"ts":1}'
    buses.publisher.publish('DETAIL:btcusdt', message('DETAIL:btcusdt', frame))
    // a later frame on each topic: once it is in, a repeat of the first would have come before it
    buses.publisher.publish('DETAIL:btcusdt', message('DETAIL:btcusdt', 'after'))
    buses.publisher.publish('DETAIL:ethusdt', message('DETAIL:ethusdt', 'after'))
    await waitFor(() => got.length === 2 && other.length === 1, 'the frames after')
    expect(got).toEqual([frame, 'after'])
    expect(other).toEqual(['after'])
  })

  it('keeps the order of frames on one topic', async () => {
    buses = await pair()
    const got: string[] = []
    await subscribed(buses.subscriber, 'TRADE:btcusdt', got)
    const sent = Array.from({ length: 2000 }, (_, i) => `{"type":"TRADE","n":${i}}`)
    for (const frame of sent) buses.publisher.publish('TRADE:btcusdt', message('TRADE:btcusdt', frame))
    await waitFor(() => got.length === sent.length, 'every frame')
    expect(got).toEqual(sent)
  })

  it('counts references: a topic stays subscribed until its last handler leaves', async () => {
    buses = await pair()
    const first: string[] = []
    const second: string[] = []
    const leaveFirst = await subscribed(buses.subscriber, 'KLINE:btcusdt:1min', first)
    const leaveSecond = await subscribed(buses.subscriber, 'KLINE:btcusdt:1min', second)
    expect(buses.subscriber.topicCount).toBe(1)
    leaveFirst()
    leaveFirst()
    buses.publisher.publish('KLINE:btcusdt:1min', message('KLINE:btcusdt:1min', 'a'))
    await waitFor(() => second.length === 1, 'the frame for the remaining handler')
    expect(first).toEqual([])
    leaveSecond()
    expect(buses.subscriber.topicCount).toBe(0)
    const again: string[] = []
    await subscribed(buses.subscriber, 'KLINE:btcusdt:1min', again)
    buses.publisher.publish('KLINE:btcusdt:1min', message('KLINE:btcusdt:1min', 'b'))
    await waitFor(() => again.length === 1, 'the frame after resubscribing')
    expect(second).toEqual(['a'])
    expect(again).toEqual(['b'])
  })

  it('gives a new subscriber the latest frame of its topic, and of every member of a wildcard', async () => {
    buses = await pair()
    const marks: string[] = []
    await subscribed(buses.subscriber, 'TRADE:marker', marks)
    buses.publisher.publish('DETAIL:btcusdt', message('DETAIL:btcusdt', 'old'))
    buses.publisher.publish('DETAIL:btcusdt', message('DETAIL:btcusdt', 'new'))
    publishOnTopics(buses.publisher, ['DETAIL:btcusdt', 'DETAIL:*'], message('DETAIL:btcusdt', 'btc-1'))
    publishOnTopics(buses.publisher, ['DETAIL:ethusdt', 'DETAIL:*'], message('DETAIL:ethusdt', 'eth-1'))
    publishOnTopics(buses.publisher, ['DETAIL:btcusdt', 'DETAIL:*'], message('DETAIL:btcusdt', 'btc-2'))
    // published after them on the same connection: once it arrives, their snapshots are stored
    buses.publisher.publish('TRADE:marker', message('TRADE:marker', 'mark'))
    await waitFor(() => marks.length === 1, 'the marker after the snapshots')
    if (!buses.ordered) {
      // the snapshots and the marker went to different nodes, so the marker's arrival does not show the
      // snapshots stored: a new subscriber asks again until they are
      await waitFor(
        () =>
          newSubscriberReads(buses.subscriber, {
            'DETAIL:btcusdt': ['btc-2'],
            'DETAIL:*': ['btc-2', 'eth-1'],
          }),
        'the snapshots stored on their nodes',
      )
    }
    await subscribed(buses.subscriber, 'DETAIL:btcusdt', [])
    await subscribed(buses.subscriber, 'DETAIL:*', [])
    expect(frameTexts(buses.subscriber.snapshot('DETAIL:btcusdt'))).toEqual(['btc-2'])
    expect(frameTexts(buses.subscriber.snapshot('DETAIL:*')).sort()).toEqual(['btc-2', 'eth-1'])
    expect(buses.subscriber.snapshot('DETAIL:solusdt')).toEqual([])
  })

  it('keeps no snapshot of per-user events', async () => {
    buses = await pair()
    buses.publisher.publish('USER:7', message('USER:7', '{"type":"SETTLEMENT"}'))
    // Markers after it on enough topics that a Cluster stores their snapshots on each of its three nodes
    // (one missed with odds of 3 × (2/3)^64, about 10^-11), and each node takes the publisher's commands
    // in order: once a new subscriber reads every marker, a snapshot of the event would be stored too.
    const markers = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`DETAIL:marker${i}`, ['mark']]))
    for (const topic of Object.keys(markers)) buses.publisher.publish(topic, message(topic, 'mark'))
    await waitFor(() => newSubscriberReads(buses.subscriber, markers), 'every marker stored')
    await subscribed(buses.subscriber, 'USER:7', [])
    expect(buses.subscriber.snapshot('USER:7')).toEqual([])
  })

  it('delivers a frame once to a subscriber on the publishing instance itself', async () => {
    buses = await pair()
    const got: string[] = []
    const elsewhere: string[] = []
    await subscribed(buses.publisher, 'TRADE:ethusdt', got)
    await subscribed(buses.subscriber, 'TRADE:ethusdt', elsewhere)
    buses.publisher.publish('TRADE:ethusdt', message('TRADE:ethusdt', 'x'))
    // once the other instance has 'x', a frame it publishes reaches the publisher after any echo of 'x'
    await waitFor(() => elsewhere.includes('x'), 'the frame on the other instance')
    expect(frameTexts(buses.publisher.snapshot('TRADE:ethusdt'))).toEqual(['x'])
    buses.subscriber.publish('TRADE:ethusdt', message('TRADE:ethusdt', 'y'))
    await waitFor(() => got.includes('y'), 'the later frame')
    expect(got).toEqual(['x', 'y'])
  })

  it('delivers a notice once to every instance, at once on the announcing one, whatever the feed lease says', async () => {
    buses = await pair()
    const here: string[] = []
    const there: string[] = []
    buses.publisher.onNotice((notice) => here.push(notice))
    const remote = buses.subscriber !== buses.publisher
    if (remote) buses.subscriber.onNotice((notice) => there.push(notice))
    // an instance whose feed lease is unconfirmed publishes no feed frames, but its notices still go
    if (buses.publisher instanceof RedisBus) buses.publisher.mayPublish = () => false
    if (remote) {
      // the notice channel is subscribed once the connection is ready
      await waitFor(async () => {
        await buses.publisher.announce('probe')
        return there.length > 0
      }, 'the notice channel subscribed')
    }
    const sessions = (notices: string[]) => notices.filter((notice) => notice !== 'probe')
    const announced = buses.publisher.announce('session-ended:revoked:key-1')
    expect(sessions(here)).toEqual(['session-ended:revoked:key-1'])
    await announced
    await buses.publisher.announce('session-ended:expired:key-2')
    const received = remote ? there : here
    await waitFor(() => sessions(received).length >= 2, 'both notices')
    expect(sessions(received)).toEqual(['session-ended:revoked:key-1', 'session-ended:expired:key-2'])
    expect(sessions(here)).toEqual(['session-ended:revoked:key-1', 'session-ended:expired:key-2'])
  })
})

describe('redis bus', () => {
  let buses: BusPair | undefined
  let admin: Redis | undefined
  afterEach(async () => {
    await buses?.close()
    admin?.disconnect()
  })

  it('sends one SUBSCRIBE per topic however many local handlers, and drops it with the last', async () => {
    buses = await implementations[1]!.pair()
    admin = new Redis(REDIS_URL)
    const bus = buses.subscriber as RedisBus
    const leaves = await Promise.all(Array.from({ length: 50 }, () => subscribed(bus, 'DETAIL:solusdt', [])))
    // this test's own channel, by its prefix: other files' buses share the machine's Redis
    const channels = await admin.pubsub('CHANNELS', `${bus.prefix}bus:DETAIL:solusdt`)
    expect(channels).toEqual([`${bus.prefix}bus:DETAIL:solusdt`])
    const channel = channels[0] as string
    expect(await admin.pubsub('NUMSUB', channel)).toEqual([channel, 1])
    for (const leave of leaves) leave()
    await waitFor(async () => ((await admin!.pubsub('NUMSUB', channel)) as unknown[])[1] === 0, 'UNSUBSCRIBE')
  })

  it('subscribes again by itself after its connection is cut, and reports down meanwhile', async () => {
    buses = await implementations[1]!.pair()
    admin = new Redis(REDIS_URL)
    const bus = buses.subscriber as RedisBus
    const got: string[] = []
    await subscribed(bus, 'TRADE:adausdt', got)
    const statuses: boolean[] = []
    const watcher = setInterval(() => statuses.push(buses!.subscriber.up), 5)
    const mine = await admin.pubsub('CHANNELS', `${bus.prefix}bus:TRADE:adausdt`)
    expect(mine).toHaveLength(1)
    // only this test's own subscriber connection, found by its name
    const clients = (await admin.client('LIST')) as string
    const ids = clients
      .split('\n')
      .filter((line) => line.includes(` name=${bus.prefix}bus-${bus.id}-sub `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1])
    expect(ids).toHaveLength(1)
    await admin.client('KILL', 'ID', ids[0]!)
    await waitFor(
      async () => ((await admin!.pubsub('NUMSUB', mine[0] as string)) as unknown[])[1] === 1,
      'resubscribe',
    )
    await waitFor(() => buses!.subscriber.up, 'bus up again')
    clearInterval(watcher)
    expect(statuses).toContain(false)
    buses.publisher.publish('TRADE:adausdt', message('TRADE:adausdt', 'after'))
    await waitFor(() => got.length === 1, 'a frame after reconnecting')
    expect(got).toEqual(['after'])
  })

  it('drops a latest-value frame its sockets already have or a late older one, and keeps the rest in order', async () => {
    buses = await implementations[1]!.pair()
    admin = new Redis(REDIS_URL)
    const bus = buses.subscriber as RedisBus
    const got: string[] = []
    await subscribed(bus, 'DETAIL:btcusdt', got)
    const detail = (price: string, ts: number) =>
      message(
        'DETAIL:btcusdt',
        JSON.stringify({ type: 'DETAIL', symbol: 'btcusdt', data: { price }, ts }),
        ts,
      )
    const sent = [
      detail('1', 1000),
      // the same frame again: the stored snapshot arriving live, or a publish sent twice
      detail('1', 1000),
      // published before the one above but reaching Redis after it, as in a Cluster failover
      detail('0', 900),
      detail('2', 1100),
      // another value at the same time is news
      detail('3', 1100),
      detail('4', 10_000),
      // an upstream clock set back further than a failover delays anything
      detail('5', 1000),
    ]
    // from another instance, straight into Redis, in this order
    for (const one of sent)
      await admin.publish(`${bus.prefix}bus:DETAIL:btcusdt`, encodeBusMessage(one, 'other|'))
    const texts = frameTexts(sent)
    await waitFor(() => got.at(-1) === texts.at(-1), 'the last frame through Redis')
    expect(got).toEqual([texts[0], texts[3], texts[4], texts[5], texts[6]])
  })

  it('stores and publishes the rest of a turn when Redis refuses one of its writes', async () => {
    buses = await implementations[1]!.pair()
    const { publisher, subscriber } = buses
    const prefix = (publisher as RedisBus).prefix
    admin = new Redis(REDIS_URL)
    // the wildcard's snapshot key holds a string: its HSET fails with WRONGTYPE
    await admin.set(`${prefix}snap:DETAIL:*`, 'not a hash')
    const all: string[] = []
    const eth: string[] = []
    await subscribed(subscriber, 'DETAIL:*', all)
    await subscribed(subscriber, 'DETAIL:ethusdt', eth)
    // one turn: the refused write comes first among the snapshots
    publishOnTopics(publisher, ['DETAIL:btcusdt', 'DETAIL:*'], message('DETAIL:btcusdt', 'btc-1'))
    publishOnTopics(publisher, ['DETAIL:ethusdt', 'DETAIL:*'], message('DETAIL:ethusdt', 'eth-1'))
    await waitFor(() => all.length === 2 && eth.length === 1, 'every frame of the turn through Redis')
    expect(all).toEqual(['btc-1', 'eth-1'])
    expect(eth).toEqual(['eth-1'])
    const stored = decodeBusMessage((await admin.getBuffer(`${prefix}snap:DETAIL:ethusdt`))!)
    expect(stored?.frame.toString()).toBe('eth-1')
    expect(await admin.get(`${prefix}snap:DETAIL:*`)).toBe('not a hash')
  })

  it("writes a topic's snapshot once per event-loop turn, its last, and still publishes every frame in order", async () => {
    // a Redis of its own, so its command counts are this test's alone
    const redis = await startRedisChild()
    const prefix = uniquePrefix('turn')
    const publisher = new RedisBus({ url: redis.url, prefix })
    const subscriber = new RedisBus({ url: redis.url, prefix })
    buses = {
      publisher,
      subscriber,
      ordered: true,
      close: async () => {
        await Promise.all([publisher.close(), subscriber.close()])
        await redis.kill()
      },
    }
    await waitFor(() => publisher.up && subscriber.up, 'both buses up')
    admin = new Redis(redis.url)
    const got: string[] = []
    await subscribed(subscriber, 'TRADE:btcusdt', got)
    const calls = async (command: string): Promise<number> =>
      Number(
        new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(await admin!.info('commandstats'))?.[1] ?? 0,
      )
    const setsBefore = await calls('set')
    const frames = Array.from({ length: 10 }, (_, i) => `trade-${i}`)
    for (const frame of frames) publisher.publish('TRADE:btcusdt', message('TRADE:btcusdt', frame))
    await waitFor(() => got.length === frames.length, 'every frame through Redis')
    expect(got).toEqual(frames)
    expect((await calls('set')) - setsBefore).toBe(1)
    const stored = decodeBusMessage((await admin.getBuffer(`${prefix}snap:TRADE:btcusdt`))!)
    expect(stored?.frame.toString()).toBe('trade-9')
  })
})
