import type { IncomingMessage } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FEED_TOKEN, startFakeUpstream, upstreamDetail, type FakeUpstream } from './fake-upstream'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { waitFor } from './helpers'

// What an open socket keeps: ten thousand sockets each holding its upgrade's request, reply,
// logger and headers would cost some 40 MB for nothing.

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Collects garbage; a WeakRef is cleared only after the job that read it ends. */
async function collect(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('an open socket', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway
  let client: TestClient | undefined

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
    upstream.send(upstreamDetail('btcusdt', 1, Date.now()))
    await waitFor(() => gateway.app.live.bus.snapshot('DETAIL:btcusdt').length === 1, 'a DETAIL snapshot')
  })
  afterAll(async () => {
    await client?.close()
    await gateway.close()
    await upstream.close()
  })

  it('lets its upgrade request go once it is open, and still works', async () => {
    let upgrade: WeakRef<IncomingMessage> | undefined
    gateway.app.server.once('upgrade', (request: IncomingMessage) => {
      upgrade = new WeakRef(request)
    })
    client = await connectClient(gateway.socketUrl())
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await client.next((frame) => frame.type === 'DETAIL')
    expect(upgrade).toBeDefined()

    await collect()
    expect(upgrade!.deref()).toBeUndefined()
    expect(gateway.app.live.connections).toBe(1)

    // the socket it came from is as alive as before
    upstream.send(upstreamDetail('btcusdt', 2, Date.now()))
    await client.next((frame) => frame.type === 'DETAIL' && (frame.data as { close: string }).close === '2')
  })
})
