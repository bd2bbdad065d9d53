import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CALLS, UPLOAD_TIMEOUT_MS } from '@tradegate/shared'
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from '../helpers'
import { BOUNDARY, uploadBody } from './raw-upload'

// Uploads with a session are bounded before their body is read: so many in flight per client address,
// per user and per instance, so many a minute per user as per address; an upload streams to the
// upstream as it arrives, holding its stream's window rather than its file, and what it holds is given
// back once it has been answered or abandoned.

const FILE_BYTES = 2 * 1024 * 1024
const PER_CLIENT = 2
const PER_INSTANCE = 3
/** what an upload may hold while it streams: its stream's buffers and the splitter's, well under a file */
const STREAMING_HOLD_BYTES = 256 * 1024

// generous: the bound only ends a test that has already failed, and the machine may be busy
const poll = <T>(read: () => T) => expect.poll(read, { timeout: 20_000, interval: 20 })

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
  /** uploads that reached the upstream at all, whole or not */
  const reached = async () => (await upstream.calls())[CALLS.uploadOSS.path] ?? 0
  let storedBefore = 0
  /** uploads the upstream received whole and stored */
  const forwarded = async () => (await upstream.storedUploads()) - storedBefore

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
    storedBefore = await upstream.storedUploads()

    // ann holds two uploads open from one address, half their bodies sent
    open.push(startUpload(port, ann, body, half), startUpload(port, ann, body, half))
    await poll(() => slots.uploadsInFlight).toBe(2)
    // both stream to the upstream before their bodies have ended, and hold only their streams'
    // windows, not the megabyte each has sent
    await poll(reached).toBe(2)
    expect(slots.heldBytes).toBeLessThan(2 * STREAMING_HOLD_BYTES)

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
    // refused while its whole body is on its way, as an HTTP client sends it: the rest is dropped
    // before the connection closes, so the sender reads the whole answer, never a reset
    for (let i = 0; i < 5; i++) {
      const answer = await startUpload(port, cyd, body, body.length, '127.0.0.3').answer
      expect(answer).toMatch(
        /^HTTP\/1\.1 503 [\s\S]*\{"code":503,"msg":"serviceUnavailable","detail":"uploads"\}$/,
      )
    }
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
    storedBefore = await upstream.storedUploads()
    const tooLarge = uploadBody(gateway.config.UPLOAD_LIMIT_BYTES + 1)
    const over = startUpload(port, ann, tooLarge, tooLarge.length)
    expect(await over.answer).toMatch(/^HTTP\/1\.1 413 /)
    // it streamed until its file went past the limit: the upstream's request was then abandoned unfinished
    await poll(reached).toBe(1)
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

describe('parts after the file', () => {
  // the file streams to the upstream once the parts before it have passed; a part after it is checked
  // before a byte of it is sent, and a refusal then abandons the upstream's request unfinished
  let upstream: TestUpstream
  let gateway: TestGateway
  let port = 0
  let token = ''

  beforeAll(async () => {
    upstream = await startUpstream()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      REDIS_URL: '',
      UPLOAD_RATE_PER_MINUTE: 100,
      UPLOAD_RATE_PER_USER_PER_MINUTE: 100,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
    token = await upstream.register(`fay${Date.now().toString(36)}`)
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  /** A file, then `after` as the next part, then the closing boundary. */
  const fileThen = (after: string | Buffer) =>
    Buffer.concat([
      uploadBody(FILE_BYTES).subarray(0, -`--${BOUNDARY}--\r\n`.length),
      Buffer.from(after),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ])
  const textPart = (head: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; ${head}\r\n`
  const GBK_CHINESE = Buffer.from([0xd6, 0xd0, 0xce, 0xc4])

  it.each([
    ['Chinese in a text part', `${textPart('name="note"')}\r\n中文`, 'cannotInputChinese'],
    [
      'a text part in GBK',
      Buffer.concat([
        Buffer.from(`${textPart('name="note"')}Content-Type: text/plain; charset=gbk\r\n\r\n`),
        GBK_CHINESE,
      ]),
      'cannotInputChinese',
    ],
    [
      'a text part whose bytes are not UTF-8',
      Buffer.concat([Buffer.from(`${textPart('name="note"')}\r\n`), Buffer.from([0x61, 0xff])]),
      'badRequest',
    ],
    [
      'a second file named in Chinese',
      `${textPart('name="file2"; filename="中文.png"')}Content-Type: image/png\r\n\r\nPNG`,
      'cannotInputChinese',
    ],
  ])(
    'refuses %s after the file with 400 once the file has streamed, and the upstream stores nothing',
    async (_kind, after, msg) => {
      await upstream.resetCalls()
      const stored = await upstream.storedUploads()
      const body = fileThen(after)
      // the file's bytes go first; the part after it only once the upstream has been reached
      const upload = startUpload(port, token, body, FILE_BYTES)
      await poll(async () => (await upstream.calls())[CALLS.uploadOSS.path] ?? 0).toBe(1)
      upload.socket.write(body.subarray(FILE_BYTES))
      const answer = await upload.answer
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      expect(answer).toMatch(/\r\nconnection: close\r\n/i)
      expect(answer).toContain(`"msg":"${msg}"`)
      expect(await upstream.storedUploads()).toBe(stored)
      await poll(() => gateway.app.uploadSlots.uploadsInFlight).toBe(0)
    },
  )

  it(
    "waits for the upstream's answer as long as a slow sender takes, past the call's own timeout",
    async () => {
      // the upstream's clock starts when the stream does, while the client is still sending: a phone
      // sending its photo slower than the call's timeout still gets the upstream's answer, not a 504
      const stored = await upstream.storedUploads()
      const body = uploadBody(FILE_BYTES)
      const upload = startUpload(port, token, body, 0)
      const started = Date.now()
      let sent = 0
      const trickle = setInterval(() => {
        if (Date.now() - started < UPLOAD_TIMEOUT_MS + 2000) {
          upload.socket.write(body.subarray(sent, sent + 1024))
          sent += 1024
          return
        }
        clearInterval(trickle)
        upload.socket.write(body.subarray(sent))
      }, 1000)
      const answer = await upload.answer
      clearInterval(trickle)
      expect(Date.now() - started).toBeGreaterThan(UPLOAD_TIMEOUT_MS)
      expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      expect(await upstream.storedUploads()).toBe(stored + 1)
    },
    UPLOAD_TIMEOUT_MS + 60_000,
  )

  it('sends a text part after the file on once it has passed', async () => {
    const stored = await upstream.storedUploads()
    const body = fileThen(`${textPart('name="note"')}\r\nplain note`)
    const upload = startUpload(port, token, body, body.length)
    expect(await upload.answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(await upstream.storedUploads()).toBe(stored + 1)
  })
})

describe('a refused upload on a kept-alive connection', () => {
  // refused before its body is read, the body is read to its end and dropped: the sender reads the
  // answer and its connection goes on; one that never sends the body it declared is cut
  let upstream: TestUpstream
  let gateway: TestGateway
  let port = 0

  beforeAll(async () => {
    upstream = await startUpstream()
    gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '' })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  /** A connection kept alive, with everything the gateway wrote on it and whether it closed. */
  function keptAlive() {
    const socket = connect({ port, host: '127.0.0.1' })
    let text = ''
    let closed = false
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', () => (closed = true))
    const anonymous = (body: Buffer) =>
      `POST ${CALLS.uploadOSS.path} HTTP/1.1\r\nHost: localhost\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`
    return { socket, anonymous, text: () => text, closed: () => closed }
  }

  it('answers the sender that sent it all, and the connection carries the next request', async () => {
    const connection = keptAlive()
    const body = uploadBody(FILE_BYTES)
    connection.socket.write(connection.anonymous(body))
    connection.socket.write(body)
    await poll(connection.text).toMatch(/^HTTP\/1\.1 401 [\s\S]*"msg":"signInRequired"/)
    expect(connection.text()).not.toMatch(/\r\nconnection: close\r\n/i)
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await poll(() => connection.text().match(/HTTP\/1\.1 200 /g)?.length ?? 0).toBe(1)
    expect(connection.closed()).toBe(false)
    connection.socket.destroy()
  })

  it('cuts a connection whose declared body never comes', async () => {
    const connection = keptAlive()
    connection.socket.write(connection.anonymous(uploadBody(FILE_BYTES)))
    await poll(connection.text).toMatch(/^HTTP\/1\.1 401 /)
    await poll(connection.closed).toBe(true)
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
