import v8 from 'node:v8'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { WebSocket } from 'ws'
import { FEED_TOKEN, SANDBOX_SYMBOLS, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, uniquePrefix, waitFor } from './helpers'
import { RESYNC_TOPIC } from '../../src/live/bus'

v8.setFlagsFromString('--expose-gc')
const collectGarbage = vm.runInNewContext('gc') as () => void

/** Opens a socket, subscribes to two topics, waits for the snapshot, and closes it. */
function cycle(url: string, symbol: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false })
    ws.once('open', () => {
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol }))
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol }))
    })
    ws.once('message', () => ws.close())
    ws.once('close', () => resolve())
    ws.once('error', reject)
  })
}

async function cycles(gateway: RunningGateway, count: number): Promise<void> {
  const concurrency = 50
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++
        await cycle(gateway.socketUrl(), SANDBOX_SYMBOLS[i % SANDBOX_SYMBOLS.length]!)
      }
    }),
  )
}

describe('connect/disconnect churn', () => {
  let upstream: SandboxUpstream
  let gateway: RunningGateway
  const prefix = uniquePrefix('churn')

  beforeAll(async () => {
    // A slow tick keeps the in-process sandbox's own allocations out of the heap figure.
    upstream = await startSandboxUpstream(250)
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, REDIS_URL, REDIS_PREFIX: prefix })
    await waitFor(async () => (await gateway.app.inject('/readyz')).statusCode === 200, 'ready')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
    await deleteKeys(prefix)
  })

  it('leaves no sockets, subscriptions, listeners, Redis channels or memory behind after 10,000 cycles', async () => {
    // the warm-up's cycles each end on a first frame, so every symbol has its snapshots before the count
    await cycles(gateway, 1000)
    await waitFor(() => gateway.app.live.connections === 0, 'warm-up sockets closed')
    collectGarbage()
    const heapBefore = process.memoryUsage().heapUsed
    const upgradeListeners = gateway.app.server.listenerCount('upgrade')
    const started = Date.now()

    await cycles(gateway, 10_000)

    await waitFor(() => gateway.app.live.connections === 0, 'every socket closed')
    const live = gateway.app.live
    expect(live.hub.topicCount).toBe(0)
    // only the gateway's own resync topic, which every instance keeps for its whole life
    expect(live.bus.topicCount).toBe(1)
    expect(gateway.app.server.listenerCount('upgrade')).toBe(upgradeListeners)
    const metrics = (await gateway.app.inject('/metrics')).body
    expect(metrics).toMatch(/^gateway_ws_connections\{[^}]*\} 0$/m)
    expect(metrics).toMatch(/^gateway_ws_subscriptions\{[^}]*\} 0$/m)
    const admin = new Redis(REDIS_URL)
    try {
      await waitFor(
        async () =>
          (await admin.pubsub('CHANNELS', `${prefix}bus:*`)).every(
            (name) => name === `${prefix}bus:${RESYNC_TOPIC}`,
          ),
        'no Redis channel left but the resync topic',
      )
    } finally {
      admin.disconnect()
    }
    collectGarbage()
    const growthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024
    expect(growthMb).toBeLessThan(8)
    console.log(`10,000 cycles in ${Date.now() - started} ms, heap growth ${growthMb.toFixed(2)} MB`)
    // about 15 s of CPU, so beside two busy loops it needs minutes: the bound only ends a failed run
  }, 600_000)
})
