import { request } from 'node:http'
import type { Socket } from 'node:net'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { useTestStack, type TestGateway, type TestUpstream } from '../helpers'
import { BOUNDARY, fileHead, startUpload, textPartAfterFile, uploadBody, type RawUpload } from './raw-upload'

// Every refusal of an upload reaches its sender as a whole answer with the gateway's JSON body, at
// whatever point of the body it comes, while the sender is still writing: the gateway drops the rest
// of the body (within the route's body limit) instead of closing the connection under the sender, which
// would meet EPIPE or ECONNRESET in place of the answer. Nothing of a body refused before it was
// forwarded reaches the upstream.

const FIVE_MIB = 5 * 1024 * 1024
/** a file that, with its multipart framing, makes a body of about 5 MiB, within the upload limit */
const FILE_BYTES = FIVE_MIB - 64 * 1024

describe.each([
  ['chunked', true],
  ['with a Content-Length', false],
])('a refused upload sent %s', (_kind, chunked) => {
  const stack = useTestStack(
    {
      REDIS_URL: '',
      UPLOADS_IN_FLIGHT_PER_CLIENT: 1,
      UPLOADS_IN_FLIGHT: 2,
      UPLOAD_RATE_PER_MINUTE: 1000,
      UPLOAD_RATE_PER_USER_PER_MINUTE: 1000,
    },
    { listen: true },
  )
  let upstream: TestUpstream
  let gateway: TestGateway
  let port = 0
  const tokens: string[] = []
  const open: RawUpload[] = []
  /** uploads that reached the upstream at all, whole or not */
  const reached = async () => (await upstream.calls())[CALLS.uploadOSS.path] ?? 0

  beforeAll(async () => {
    ;({ upstream, gateway, port } = stack)
    const stamp = Date.now().toString(36)
    for (const name of ['amy', 'ben', 'cal']) tokens.push(await upstream.register(`${name}${stamp}`))
  })
  beforeEach(async () => {
    await upstream.resetCalls()
  })
  afterEach(async () => {
    for (const upload of open.splice(0)) upload.socket.destroy()
    // what a test held is given back before the next one counts slots
    await expect.poll(() => gateway.app.uploadSlots.uploadsInFlight).toBe(0)
  })

  /** Sends `body` whole, whatever comes back meanwhile, and expects the refusal read whole and no reset. */
  async function expectRefusal(
    options: Omit<Parameters<typeof startUpload>[0], 'port' | 'chunked'>,
    status: number,
    expected: Record<string, unknown>,
  ) {
    const upload = startUpload({ port, chunked, ...options })
    const { answer, error, sent } = await upload.done
    expect(error).toBeNull()
    expect(sent).toBe(options.body.length)
    expect(answer?.status).toBe(status)
    expect(JSON.parse(answer!.body)).toEqual(expected)
    return answer!
  }

  it('answers 401 to an upload without a session, and forwards nothing', async () => {
    const answer = await expectRefusal({ body: uploadBody(FILE_BYTES) }, 401, {
      code: 401,
      msg: 'signInRequired',
      detail: 'headers.satoken',
    })
    // a body without a declared length is read no further than the route's limit, so its connection ends
    if (chunked) expect(answer.headers.get('connection')).toBe('close')
    else expect(answer.headers.get('connection')).not.toBe('close')
    expect(await reached()).toBe(0)
  })

  it('answers 415 to an upload that is not multipart, and forwards nothing', async () => {
    await expectRefusal(
      { body: uploadBody(FILE_BYTES), token: tokens[0], contentType: 'application/octet-stream' },
      415,
      { code: 415, msg: 'unsupportedMediaType' },
    )
    expect(await reached()).toBe(0)
  })

  it('answers 400 to Chinese in a text part before the file, and forwards nothing', async () => {
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n中文\r\n`),
      uploadBody(FILE_BYTES),
    ])
    await expectRefusal({ body, token: tokens[0] }, 400, {
      code: 400,
      msg: 'cannotInputChinese',
      detail: 'body',
    })
    expect(await reached()).toBe(0)
  })

  it('answers 400 to Chinese in a text part after the file had gone upstream, and the upstream stores nothing', async () => {
    const stored = await upstream.storedUploads()
    const body = uploadBody(FILE_BYTES, textPartAfterFile('中文'))
    const upload = startUpload({ port, chunked, body, token: tokens[0], holdAt: FILE_BYTES })
    // the parts before the text have gone upstream before the text part is sent
    await expect.poll(reached).toBe(1)
    upload.release()
    const { answer, error, sent } = await upload.done
    expect(error).toBeNull()
    expect(sent).toBe(body.length)
    expect(answer?.status).toBe(400)
    expect(JSON.parse(answer!.body)).toEqual({ code: 400, msg: 'cannotInputChinese', detail: 'body' })
    expect(await upstream.storedUploads()).toBe(stored)
  })

  it('answers 413 to a file past the upload limit, refused once its first bytes had gone upstream', async () => {
    const stored = await upstream.storedUploads()
    const body = uploadBody(gateway.config.UPLOAD_LIMIT_BYTES + 64 * 1024)
    await expectRefusal({ body, token: tokens[0] }, 413, { code: 413, msg: 'payloadTooLarge' })
    expect(await reached()).toBe(1)
    expect(await upstream.storedUploads()).toBe(stored)
  })

  it('answers 503 to an upload streaming upstream when the instance answers all in flight, and abandons what it sent', async () => {
    const stored = await upstream.storedUploads()
    const body = uploadBody(FILE_BYTES)
    const upload = startUpload({ port, chunked, body, token: tokens[0], holdAt: FILE_BYTES / 2 })
    await expect.poll(reached).toBe(1)
    // as a shutdown does with what is still unanswered when its time runs out
    expect(gateway.app.answerInFlight(5)).toBe(1)
    upload.release()
    const { answer, error, sent } = await upload.done
    expect(error).toBeNull()
    expect(sent).toBe(body.length)
    expect(answer?.status).toBe(503)
    expect(answer?.headers.get('retry-after')).toBe('5')
    expect(JSON.parse(answer!.body)).toEqual({ code: 503, msg: 'serviceUnavailable' })
    // the handler ends after its answer has gone, and Fastify says so: with the abandoned stream's
    // refusal, or, had the upload streamed on, with the upstream's answer it could no longer send
    const id = answer!.headers.get('x-request-id')
    await expect
      .poll(() => gateway.logs.some((line) => line.reqId === id && Number(line.level) >= 40))
      .toBe(true)
    // the rest of the body was dropped, not streamed on: the upstream's request was abandoned
    expect(await upstream.storedUploads()).toBe(stored)
  })

  it('answers 429 past the uploads in flight per client and 503 past those of the instance, with Retry-After', async () => {
    const [amy, ben, cal] = tokens as [string, string, string]
    const body = uploadBody(FILE_BYTES)
    // amy's upload holds her address's only slot, ben's from another address the instance's second
    open.push(startUpload({ port, chunked, body, token: amy, holdAt: 64 * 1024 }))
    await expect.poll(() => gateway.app.uploadSlots.uploadsInFlight).toBe(1)
    const perClient = await expectRefusal({ body, token: ben }, 429, {
      code: 429,
      msg: 'tooManyRequests',
      detail: 'uploads',
    })
    expect(Number(perClient.headers.get('retry-after'))).toBeGreaterThan(0)
    open.push(startUpload({ port, chunked, body, token: ben, address: '127.0.0.2', holdAt: 64 * 1024 }))
    await expect.poll(() => gateway.app.uploadSlots.uploadsInFlight).toBe(2)
    await expect.poll(reached).toBe(2)
    const perInstance = await expectRefusal({ body, token: cal, address: '127.0.0.3' }, 503, {
      code: 503,
      msg: 'serviceUnavailable',
      detail: 'uploads',
    })
    expect(Number(perInstance.headers.get('retry-after'))).toBeGreaterThan(0)
    // only the two held uploads reached the upstream
    expect(await reached()).toBe(2)
  })
})

describe('a refused upload whose body is larger than the gateway reads', () => {
  const stack = useTestStack({ REDIS_URL: '' }, { listen: true })
  let upstream: TestUpstream
  let gateway: TestGateway
  let port = 0
  let token = ''

  beforeAll(async () => {
    ;({ upstream, gateway, port } = stack)
    token = await upstream.register(`dot${Date.now().toString(36)}`)
    await upstream.resetCalls()
  })

  it('answers 413 to a declared length past the limit, reads a bounded part of the body, then closes', async () => {
    const body = uploadBody(3 * FIVE_MIB)
    const upload = startUpload({ port, chunked: false, body, token })
    // the declared length is refused as it arrives: the answer comes while the body is still on its way
    await expect.poll(upload.answer).not.toBeNull()
    expect(upload.answer()!.status).toBe(413)
    expect(JSON.parse(upload.answer()!.body)).toEqual({ code: 413, msg: 'payloadTooLarge' })
    expect(upload.answer()!.headers.get('connection')).toBe('close')
    expect(upload.sent()).toBeLessThan(body.length)
    const { sent } = await upload.done
    // closed before the sender could send it all: the gateway read no more than its bound
    expect(sent).toBeLessThan(body.length)
    expect(await upstream.totalCalls()).toBe(0)
  })

  it('cuts a sender that keeps streaming after its refusal, and answers /healthz meanwhile', async () => {
    const bound = gateway.config.UPLOAD_LIMIT_BYTES
    const upload = startUpload({ port, chunked: true, body: fileHead(), endless: true })
    let healthyWhileStreaming = 0
    let streaming = true
    void upload.done.then(() => (streaming = false))
    const probe = () => {
      if (!streaming) return
      const outgoing = request(`http://127.0.0.1:${port}/healthz`, (response) => {
        response.resume()
        response.on('end', () => {
          if (response.statusCode === 200 && streaming) healthyWhileStreaming++
          probe()
        })
      })
      outgoing.on('error', () => undefined)
      outgoing.end()
    }
    probe()
    const { answer, sent } = await upload.done
    // it read its whole refusal before it was cut
    expect(answer?.status).toBe(401)
    expect(answer?.headers.get('connection')).toBe('close')
    expect(JSON.parse(answer!.body)).toMatchObject({ code: 401, msg: 'signInRequired' })
    // cut after the bound, not before (the kernel's buffers between the two hold some more)
    expect(sent).toBeGreaterThan(bound)
    expect(healthyWhileStreaming).toBeGreaterThan(0)
    expect(await upstream.totalCalls()).toBe(0)
  })
})

describe('a refused upload whose sender is slow', () => {
  const stack = useTestStack(
    { REDIS_URL: '', UPLOAD_DRAIN_IDLE_MS: 1000, UPLOAD_DRAIN_MAX_MS: 8000 },
    { listen: true },
  )
  /** the gateway's side of each connection, by the sender's port */
  const served = new Map<number, Socket>()

  beforeAll(() => {
    stack.gateway.app.server.on('connection', (socket: Socket) => served.set(socket.remotePort!, socket))
  })

  it('cuts the sender that falls silent, and reads a steady one to its end past that bound', async () => {
    const { port } = stack
    // both refused at once (no session), one then silent, one sending a piece every 150 ms for about 2 s
    const silent = startUpload({ port, chunked: true, body: uploadBody(FIVE_MIB), holdAt: 128 * 1024 })
    const steady = startUpload({ port, chunked: true, body: uploadBody(768 * 1024), paceMs: 150 })
    await expect.poll(() => silent.answer() && steady.answer()).toBeTruthy()
    const silentSide = served.get(silent.socket.localPort!)!
    await expect.poll(() => silentSide.destroyed).toBe(true)
    // the silent one was cut for its silence: the steady one, answered at the same time, is still sending
    expect(steady.sent()).toBeLessThan(uploadBody(768 * 1024).length)
    expect(silent.answer()!.status).toBe(401)
    const { answer, error, sent } = await steady.done
    expect(error).toBeNull()
    expect(sent).toBe(uploadBody(768 * 1024).length)
    expect(answer?.status).toBe(401)
    silent.socket.destroy()
  })

  it('cuts a sender still sending, however steadily, once the drain has lasted its most', async () => {
    const upload = startUpload({
      port: stack.port,
      chunked: true,
      body: fileHead(),
      endless: true,
      paceMs: 200,
    })
    const { answer, error, sent } = await upload.done
    expect(answer?.status).toBe(401)
    // cut by time: far fewer bytes than the bound that cuts a fast sender
    expect(sent).toBeLessThan(stack.gateway.config.UPLOAD_LIMIT_BYTES / 4)
    expect(error).not.toBeNull()
  })
})
