import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from '../helpers'
import { connectClient, type TestClient } from './client'
import { startNginx } from './processes'
import { rawUpgrade } from './raw-upgrade'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'

// Behind one proxy (Debian's nginx with docker/nginx.conf), each TRUST_PROXY form gives REST calls,
// socket upgrades and the rate limit the client's own address: two clients, two budgets.

const BUDGET = 8
const SOCKETS_PER_ADDRESS = 2
const FIRST = '127.0.0.2'
const SECOND = '127.0.0.3'

/** The status of a GET through the proxy, sent from `localAddress`. */
function statusOf(port: number, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    sent.on('error', reject)
    sent.end()
  })
}

describe.each(['1', '127.0.0.1', 'true'])('TRUST_PROXY=%s behind nginx', (trustProxy) => {
  let upstream: SandboxUpstream
  let gateway: TestGateway
  let nginx: Awaited<ReturnType<typeof startNginx>>
  const clients: TestClient[] = []

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL: '',
      TRUST_PROXY: trustProxy,
      RATE_LIMIT_PER_MINUTE: BUDGET,
      WS_MAX_SOCKETS_PER_IP: SOCKETS_PER_ADDRESS,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    nginx = await startNginx([(gateway.app.server.address() as AddressInfo).port])
  }, 30_000)
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()))
    await nginx?.close()
    await gateway?.close()
    await upstream?.close()
  })

  it('keeps a socket cap and a request budget per client address, for sockets and REST alike', async () => {
    const socketUrl = (id: string) => `ws://127.0.0.1:${nginx.port}/ws/${id}`
    for (let i = 0; i < SOCKETS_PER_ADDRESS; i++)
      clients.push(await connectClient(socketUrl(`first-${i}`), { localAddress: FIRST }))
    const capped = await rawUpgrade(nginx.port, '/ws/first-capped', { localAddress: FIRST })
    expect(capped.status).toBe(429)
    clients.push(await connectClient(socketUrl('second-0'), { localAddress: SECOND }))

    // the first address spends the rest of its budget on REST calls
    const statuses: number[] = []
    while (statuses.length < BUDGET && !statuses.includes(429))
      statuses.push(await statusOf(nginx.port, CALLS.getCoinList.path, FIRST))
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.length).toBeLessThanOrEqual(BUDGET - SOCKETS_PER_ADDRESS + 1)

    // the second address's budget is its own, for REST and for sockets
    expect(await statusOf(nginx.port, CALLS.getCoinList.path, SECOND)).toBe(200)
    clients.push(await connectClient(socketUrl('second-1'), { localAddress: SECOND }))
    await clients.pop()!.close()
    expect((await rawUpgrade(nginx.port, '/ws/first-spent', { localAddress: FIRST })).status).toBe(429)
  })
})

describe('uploads behind nginx, to an upstream behind nginx', () => {
  // the edge lets every upload the gateway would take through to it, so the gateway is what judges
  // an upload (in its own JSON) and streams it on; past the edge's own bound, the refusal still
  // comes in the body every refusal has. The gateway sends an upload on chunked, as it streams it,
  // and the upstream's own front end (the same nginx, in front of the sandbox) takes it so
  const BOUNDARY = '----behindproxy'
  let upstream: TestUpstream
  let front: Awaited<ReturnType<typeof startNginx>>
  let gateway: TestGateway
  let nginx: Awaited<ReturnType<typeof startNginx>>
  let token = ''

  const upload = (fileBytes: number, as = token) =>
    fetch(`http://127.0.0.1:${nginx.port}${CALLS.uploadOSS.path}`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, satoken: as },
      body: Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="id.jpg"\r\n` +
            'Content-Type: image/jpeg\r\n\r\n',
        ),
        Buffer.alloc(fileBytes, 0xab),
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    })

  beforeAll(async () => {
    upstream = await startUpstream()
    front = await startNginx([Number(new URL(upstream.url).port)])
    gateway = await startTestGateway({
      UPSTREAM_URL: `http://127.0.0.1:${front.port}`,
      REDIS_URL: '',
      TRUST_PROXY: '1',
      // every upload here comes from one address: a user's own budget is the one that refuses
      UPLOAD_RATE_PER_MINUTE: 100,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    nginx = await startNginx([(gateway.app.server.address() as AddressInfo).port])
    token = await upstream.register(`edge${Date.now().toString(36)}`)
  }, 30_000)
  afterAll(async () => {
    await nginx?.close()
    await gateway?.close()
    await front?.close()
    await upstream?.close()
  })

  it("passes an identity photo at the gateway's limit on to the upstream", async () => {
    const stored = await upstream.storedUploads()
    const response = await upload(gateway.config.UPLOAD_LIMIT_BYTES)
    expect(response.status).toBe(200)
    expect(await upstream.storedUploads()).toBe(stored + 1)
    // it reached the sandbox through the upstream's front end
    expect(front.accessLog()).toContain(`"path":"${CALLS.uploadOSS.path}","status":200`)
  })

  it("answers the upload past a user's minute budget with the gateway's 429, and the gateway stays in rotation", async () => {
    // refused before its body is read: closed under nginx while it still sent, nginx answered 502 and
    // counted it against the gateway
    const busy = await upstream.register(`busy${Date.now().toString(36)}`)
    const statuses: number[] = []
    for (let i = 0; i < gateway.config.UPLOAD_RATE_PER_USER_PER_MINUTE; i++)
      statuses.push((await upload(1024, busy)).status)
    // the refused one as large as allowed: nginx is still sending it when the gateway answers
    statuses.push((await upload(gateway.config.UPLOAD_LIMIT_BYTES, busy)).status)
    expect(statuses).toEqual([...Array(gateway.config.UPLOAD_RATE_PER_USER_PER_MINUTE).fill(200), 429])
    expect(nginx.errorLog()).not.toMatch(/while sending request to upstream/)
  })

  it("answers a file over the gateway's limit with the gateway's refusal, and one past the edge's own bound in the same body", async () => {
    const stored = await upstream.storedUploads()
    const overGateway = await upload(gateway.config.UPLOAD_LIMIT_BYTES + 1)
    expect(overGateway.status).toBe(413)
    expect(await overGateway.json()).toMatchObject({ code: 413, msg: 'payloadTooLarge' })
    const overEdge = await upload(4 * gateway.config.UPLOAD_LIMIT_BYTES)
    expect(overEdge.status).toBe(413)
    expect(await overEdge.json()).toEqual({ code: 413, msg: 'payloadTooLarge' })
    expect(await upstream.storedUploads()).toBe(stored)
  })
})
