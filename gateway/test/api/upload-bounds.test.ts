import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from '../helpers'

// Uploads with a session are bounded before their body is read: so many in flight per client address,
// per user and per instance, so many a minute per user as per address; and every byte an upload holds
// is given back once it has been answered or abandoned.

const BOUNDARY = '----uploadbounds'
const FILE_BYTES = 2 * 1024 * 1024
const PER_CLIENT = 2
const PER_INSTANCE = 3

// generous: the bound only ends a test that has already failed, and the machine may be busy
const poll = <T>(read: () => T) => expect.poll(read, { timeout: 20_000, interval: 20 })

function uploadBody(bytes: number): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="id.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    Buffer.alloc(bytes, 0xab),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

const head = (length: number, token: string) =>
  `POST ${CALLS.uploadOSS.path} HTTP/1.1\r\nHost: localhost\r\n` +
  `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n` +
  // one upload per connection: the answer's end is the connection's
  `satoken: ${token}\r\nConnection: close\r\n\r\n`

interface RawUpload {
  socket: Socket
  /** the answer's text once the gateway has written it */
  answer: Promise<string>
}

/** An upload over its own connection from `address`, sending `sent` bytes of its body now. */
function startUpload(
  port: number,
  token: string,
  body: Buffer,
  sent: number,
  address = '127.0.0.1',
): RawUpload {
  const socket = connect({ port, host: '127.0.0.1', localAddress: address })
  const answer = new Promise<string>((resolve) => {
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(text))
  })
  socket.write(head(body.length, token))
  socket.write(body.subarray(0, sent))
  return { socket, answer }
}

/** An upload whose answer comes before its body is sent: only the head goes out. */
async function refusedUpload(port: number, token: string, address = '127.0.0.1'): Promise<string> {
  const upload = startUpload(port, token, uploadBody(FILE_BYTES), 0, address)
  return upload.answer
}

describe('uploads in flight', () => {
  let upstream: TestUpstream
  let gateway: TestGateway
  let port = 0
  const tokens: string[] = []
  const open: RawUpload[] = []
  const forwarded = async () => (await upstream.calls())[CALLS.uploadOSS.path] ?? 0

  beforeAll(async () => {
    upstream = await startUpstream()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      REDIS_URL: '',
      UPLOADS_IN_FLIGHT_PER_CLIENT: PER_CLIENT,
      UPLOADS_IN_FLIGHT: PER_INSTANCE,
      UPLOAD_RATE_PER_MINUTE: 100,
      UPLOAD_RATE_PER_USER_PER_MINUTE: 100,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
    const stamp = Date.now().toString(36)
    for (const name of ['ann', 'bob', 'cyd']) tokens.push(await upstream.register(`${name}${stamp}`))
  })
  afterEach(() => {
    for (const upload of open.splice(0)) upload.socket.destroy()
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('refuses the upload past each bound before its body is read, forwards none of them, and gives every held byte back', async () => {
    const [ann, bob, cyd] = tokens as [string, string, string]
    const slots = gateway.app.uploadSlots
    const body = uploadBody(FILE_BYTES)
    const half = body.length / 2
    await upstream.resetCalls()

    // ann holds two uploads open from one address, half their bodies sent
    open.push(startUpload(port, ann, body, half), startUpload(port, ann, body, half))
    await poll(() => slots.uploadsInFlight).toBe(2)
    // what they hold is what they have sent of their files: half of each (all but what the splitter
    // keeps back while it looks for a boundary)
    await poll(() => slots.heldBytes).toBeGreaterThan(0.99 * FILE_BYTES)

    // the third from her address, and the third of her user from another address: 429
    for (const address of ['127.0.0.1', '127.0.0.2']) {
      const answer = await refusedUpload(port, ann, address)
      expect(answer, address).toMatch(/^HTTP\/1\.1 429 /)
      expect(answer, address).toMatch(/\r\nretry-after: [1-9]\d*\r\n/i)
      expect(answer, address).toMatch(/\r\nconnection: close\r\n/i)
      expect(answer, address).toContain('{"code":429,"msg":"tooManyRequests","detail":"uploads"}')
    }
    // bob from another address takes the instance's last slot; cyd's upload finds none: 503
    open.push(startUpload(port, bob, body, half, '127.0.0.2'))
    await poll(() => slots.uploadsInFlight).toBe(PER_INSTANCE)
    const full = await refusedUpload(port, cyd, '127.0.0.3')
    expect(full).toMatch(/^HTTP\/1\.1 503 /)
    // refused while its whole body is on its way, as an HTTP client sends it: the connection closes
    // under the sender, and the answer may be cut or reset, as a load balancer's upload would meet it
    for (let i = 0; i < 5; i++) await startUpload(port, cyd, body, body.length, '127.0.0.3').answer
    expect(full).toMatch(/\r\nretry-after: [1-9]\d*\r\n/i)
    expect(full).toContain('{"code":503,"msg":"serviceUnavailable","detail":"uploads"}')
    expect(await forwarded()).toBe(0)

    // bob's upload completes: it is forwarded, answered, and its bytes are no longer held
    const bobs = open.pop()!
    bobs.socket.write(body.subarray(half))
    expect(await bobs.answer).toMatch(/^HTTP\/1\.1 200 [\s\S]*"code":200/)
    expect(await forwarded()).toBe(1)
    await poll(() => slots.uploadsInFlight).toBe(2)
    // ann's two are abandoned halfway: nothing of them is forwarded, nothing of them stays held
    for (const upload of open.splice(0)) upload.socket.destroy()
    await poll(() => slots.uploadsInFlight).toBe(0)
    expect(slots.heldBytes).toBe(0)
    expect(await forwarded()).toBe(1)

    // and cyd, refused while the instance was full, gets through now
    const after = startUpload(port, cyd, body, body.length, '127.0.0.3')
    expect(await after.answer).toMatch(/^HTTP\/1\.1 200 /)
    await poll(() => slots.uploadsInFlight).toBe(0)
    expect(slots.heldBytes).toBe(0)
    // and no request of them is held either (a request holds its upload's parts): not the answered,
    // the refused before their body, nor the abandoned halfway
    await poll(() => gateway.app.requestsInFlight).toBe(0)
  })

  it('gives back what an upload refused halfway held: a part over its limit, a malformed body', async () => {
    const slots = gateway.app.uploadSlots
    const [ann] = tokens as [string]
    await upstream.resetCalls()
    const tooLarge = uploadBody(gateway.config.UPLOAD_LIMIT_BYTES + 1)
    const over = startUpload(port, ann, tooLarge, tooLarge.length)
    expect(await over.answer).toMatch(/^HTTP\/1\.1 413 /)
    const broken = Buffer.concat([
      uploadBody(64 * 1024).subarray(0, 40 * 1024),
      Buffer.from('\r\n--nope--\r\n'),
    ])
    const malformed = startUpload(port, ann, broken, broken.length)
    expect(await malformed.answer).toMatch(/^HTTP\/1\.1 400 /)
    await poll(() => slots.uploadsInFlight).toBe(0)
    expect(slots.heldBytes).toBe(0)
    expect(await forwarded()).toBe(0)
    await poll(() => gateway.app.requestsInFlight).toBe(0)
  })
})

describe('uploads a minute per user', () => {
  let upstream: TestUpstream
  let gateway: TestGateway

  beforeAll(async () => {
    upstream = await startUpstream()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      REDIS_URL: '',
      UPLOAD_RATE_PER_MINUTE: 100,
      UPLOAD_RATE_PER_USER_PER_MINUTE: 2,
    })
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it("counts a user's uploads from every address, and refuses an unknown session before the body", async () => {
    const stamp = Date.now().toString(36)
    const dee = await upstream.register(`dee${stamp}`)
    const eve = await upstream.register(`eve${stamp}`)
    const upload = (token: string, remoteAddress: string) =>
      gateway.app.inject({
        method: 'POST',
        url: CALLS.uploadOSS.path,
        remoteAddress,
        payload: uploadBody(1024),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, satoken: token },
      })
    await upstream.resetCalls()
    expect((await upload(dee, '10.0.0.1')).statusCode).toBe(200)
    expect((await upload(dee, '10.0.0.2')).statusCode).toBe(200)
    const third = await upload(dee, '10.0.0.3')
    expect(third.statusCode).toBe(429)
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0)
    expect(third.json()).toEqual({ code: 429, msg: 'tooManyRequests', detail: 'uploads' })
    // another user from the same address is not held to dee's budget
    expect((await upload(eve, '10.0.0.3')).statusCode).toBe(200)

    const unknown = await upload('not-a-session-of-anyone', '10.0.0.4')
    expect(unknown.statusCode).toBe(401)
    expect(unknown.json()).toMatchObject({ code: 401, msg: 'signInRequired' })
    expect((await upstream.calls())[CALLS.uploadOSS.path]).toBe(3)
  })
})
