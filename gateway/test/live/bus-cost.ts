/**
 * CPU per publish of the memory bus and the Redis bus, in this process, with one handler per topic:
 * what a frame costs the publishing instance beyond its fan-out to sockets. Frames are shaped like
 * the feed's (DETAIL also on its wildcard topic, DEPTH with its whole book as the snapshot), several
 * per event-loop turn. CPU time, not wall time, so a busy machine moves it little.
 *
 *   npx tsx test/live/bus-cost.ts [redis://127.0.0.1:6379] [publishes]
 */
import { MemoryBus } from '../../src/live/memory-bus'
import { RedisBus } from '../../src/live/redis-bus'
import { publishOnTopics, type Bus } from '../../src/live/bus'
import type { BusMessage, FrameHeader } from '../../src/live/bus-message'

const redisUrl = process.argv[2] ?? 'redis://127.0.0.1:6379'
const publishes = Number(process.argv[3] ?? 20_000)
const SYMBOLS = Array.from({ length: 50 }, (_, i) => `sym${i}usdt`)
const PER_TURN = 8

const level = (price: number): [string, string] => [price.toFixed(2), '1.2345']
const bookText = JSON.stringify({
  type: 'DEPTH',
  symbol: 'sym0usdt',
  data: {
    snapshot: true,
    seq: 1,
    bids: Array.from({ length: 50 }, (_, i) => level(100 - i)),
    asks: Array.from({ length: 50 }, (_, i) => level(101 + i)),
  },
  ts: Date.now(),
})

/** A message as the feed makes it: its header, and its text serialised once. */
function message(header: FrameHeader, text: string): BusMessage {
  return { header, frame: Buffer.from(text) }
}

const book = message({ topic: 'DEPTH:sym0usdt', type: 'DEPTH', ts: Date.now(), seq: 1, book: true }, bookText)

function frameAt(i: number): { topics: string[]; frame: BusMessage; snapshot?: BusMessage } {
  const symbol = SYMBOLS[i % SYMBOLS.length]!
  const ts = Date.now()
  switch (i % 4) {
    case 0:
      return {
        topics: [`DETAIL:${symbol}`, 'DETAIL:*'],
        frame: message(
          { topic: `DETAIL:${symbol}`, type: 'DETAIL', ts },
          JSON.stringify({ type: 'DETAIL', symbol, data: { close: '1.2345', vol: '100' }, ts }),
        ),
      }
    case 1:
      return {
        topics: [`TRADE:${symbol}`],
        frame: message(
          { topic: `TRADE:${symbol}`, type: 'TRADE', ts },
          JSON.stringify({ type: 'TRADE', symbol, data: [{ p: '1' }], ts }),
        ),
      }
    case 2:
      return {
        topics: [`DEPTH:${symbol}`],
        frame: message(
          { topic: `DEPTH:${symbol}`, type: 'DEPTH', ts, seq: i, book: false },
          JSON.stringify({ type: 'DEPTH', symbol, data: { seq: i, bids: [level(99)], asks: [] }, ts }),
        ),
        snapshot: book,
      }
    default:
      return {
        topics: [`KLINE:${symbol}:1min`],
        frame: message(
          { topic: `KLINE:${symbol}:1min`, type: 'KLINE', ts, candle: ts - (ts % 60_000) },
          JSON.stringify({ type: 'KLINE', symbol, data: {}, ts }),
        ),
      }
  }
}

async function measure(name: string, bus: Bus): Promise<number> {
  let delivered = 0
  const subscribed: Promise<void>[] = []
  for (let i = 0; i < 4 * SYMBOLS.length; i++) {
    const { topics } = frameAt(i)
    for (const topic of topics) {
      const { ready } = bus.subscribe(topic, () => delivered++)
      if (ready) subscribed.push(ready)
    }
  }
  // every topic subscribed upstream before the first publish, so the echoes are read back from the start
  await Promise.all(subscribed)
  const run = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i += PER_TURN) {
      for (let j = i; j < Math.min(count, i + PER_TURN); j++) {
        const { topics, frame, snapshot } = frameAt(j)
        publishOnTopics(bus, topics, frame, snapshot)
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    // until the echoes of the last turn are read back
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await run(2000)
  const before = process.cpuUsage()
  await run(publishes)
  const cpu = process.cpuUsage(before)
  const micros = (cpu.user + cpu.system) / publishes
  console.log(
    `${name}: ${micros.toFixed(1)} µs CPU per published frame (${publishes} frames, ${delivered} handler calls)`,
  )
  await bus.close()
  return micros
}

const memory = await measure('memory bus', new MemoryBus())
const redis = new RedisBus({ url: redisUrl, prefix: `buscost:${process.pid}:` })
// a bus that is not up yet publishes nothing, which would measure nothing
for (const deadline = performance.now() + 10_000; !redis.up;) {
  if (performance.now() > deadline) throw new Error(`the Redis bus did not come up at ${redisUrl}`)
  await new Promise((resolve) => setTimeout(resolve, 10))
}
const redisCost = await measure('redis bus', redis)
console.log(`redis / memory: ${(redisCost / memory).toFixed(2)}x`)
process.exit(0)
