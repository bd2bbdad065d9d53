import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, useTestStack, type TestGateway } from '../helpers'

// Uploads: which parts count as files, text parts read in their own charset before the Chinese rule,
// and a session and a budget of their own checked before a byte of the body is read.

const stack = useTestStack({
  REDIS_URL: '',
  UPLOAD_RATE_PER_MINUTE: 1000,
  UPLOAD_RATE_PER_USER_PER_MINUTE: 1000,
})
/** a signed-in user's session: an upload's user is known before its body is read */
const SESSION = { satoken: '' }
beforeAll(async () => {
  SESSION.satoken = await stack.upstream.register(`uploader${Date.now().toString(36)}`)
})
beforeEach(async () => {
  await stack.upstream.resetCalls()
})
/** Uploads that reached the upstream (the gateway's own look-up of the session's user aside). */
const forwarded = async () => (await stack.upstream.calls())[CALLS.uploadOSS.path] ?? 0

const BOUNDARY = '----uploadtest'

interface Part {
  name: string
  content: Buffer | string
  /** the whole Content-Disposition filename parameter, e.g. `; filename=""` */
  filename?: string
  type?: string
  extraHeaders?: string
}

function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = []
  for (const { name, content, filename, type, extraHeaders } of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ?? ''}\r\n`
    if (type) head += `Content-Type: ${type}\r\n`
    if (extraHeaders) head += extraHeaders
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(content), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(chunks)
}

const upload = (parts: Part[], headers: Record<string, string> = SESSION) =>
  stack.gateway.app.inject({
    method: 'POST',
    url: CALLS.uploadOSS.path,
    payload: multipartBody(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
  })

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16()
// 中文 in GBK (and GB18030, which agrees with it here)
const GBK_CHINESE = Buffer.from([0xd6, 0xd0, 0xce, 0xc4])

describe('which parts are files', () => {
  it.each([
    [
      'an empty file name with application/octet-stream',
      { filename: '; filename=""', type: 'application/octet-stream' },
    ],
    ['an empty file name with image/png', { filename: '; filename=""', type: 'image/png' }],
    [
      'a named file of a type uploads do not take',
      { filename: '; filename="a.bin"', type: 'application/octet-stream' },
    ],
    ['a named PDF', { filename: '; filename="a.pdf"', type: 'application/pdf' }],
  ])('%s is text, and Chinese in it is refused', async (_kind, shape) => {
    const response = await upload([{ name: 'file', content: '中文', ...shape }])
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 400, msg: 'cannotInputChinese' })
    expect(await forwarded()).toBe(0)
  })

  it('passes a named image of an accepted type on as a file, its bytes unread', async () => {
    const response = await upload([
      { name: 'file', content: '中文 PNG bytes', filename: '; filename="photo.png"', type: 'image/png' },
    ])
    expect(response.statusCode).toBe(200)
    expect(await forwarded()).toBe(1)
  })
})

describe('text parts in their own charset', () => {
  it.each([
    ['UTF-16LE', 'text/plain; charset=utf-16le', Buffer.from('note 中文', 'utf16le')],
    ['UTF-16BE', 'text/plain; charset=UTF-16BE', utf16be('note 中文')],
    ['GBK', 'text/plain; charset=gbk', GBK_CHINESE],
    ['GB18030', 'text/plain; charset="gb18030"', GBK_CHINESE],
  ])('decodes a %s part before the Chinese rule and refuses it', async (_charset, type, content) => {
    for (const filename of ['', '; filename="note.txt"']) {
      const response = await upload([{ name: 'note', content, type, filename }])
      expect(response.statusCode, filename).toBe(400)
      expect(response.json(), filename).toMatchObject({ code: 400, msg: 'cannotInputChinese' })
    }
    expect(await forwarded()).toBe(0)
  })

  it('takes a UTF-16LE part without Chinese and sends it on', async () => {
    const response = await upload([
      { name: 'note', content: Buffer.from('plain note', 'utf16le'), type: 'text/plain; charset=utf-16le' },
      { name: 'file', content: 'PNG', filename: '; filename="a.png"', type: 'image/png' },
    ])
    expect(response.statusCode).toBe(200)
    expect(await forwarded()).toBe(1)
  })

  it.each([
    ['an unknown charset', { type: 'text/plain; charset=x-made-up' }],
    ['UTF-7, which TextDecoder cannot read', { type: 'text/plain; charset=utf-7' }],
    ['a charset that only decodes to a replacement character', { type: 'text/plain; charset=hz-gb-2312' }],
    ['a base64 transfer encoding', { extraHeaders: 'Content-Transfer-Encoding: base64\r\n' }],
    [
      'a second file name given as filename*',
      { filename: `; filename="a.png"; filename*=UTF-8''b.png`, type: 'image/png' },
    ],
  ])('refuses %s with 400 badRequest', async (_kind, shape) => {
    const response = await upload([{ name: 'note', content: '5Lit5paH', ...shape }])
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 400, msg: 'badRequest' })
    expect(await forwarded()).toBe(0)
  })

  it('reads a folded header line as one: the charset on its second line decides how the text is checked', async () => {
    const response = await upload([
      { name: 'note', content: GBK_CHINESE, extraHeaders: 'Content-Type: text/plain;\r\n charset=gbk\r\n' },
    ])
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 400, msg: 'cannotInputChinese' })
    expect(await forwarded()).toBe(0)
  })

  it('refuses a UTF-8 part whose bytes are not UTF-8', async () => {
    const response = await upload([{ name: 'note', content: Buffer.from([0x61, 0xff, 0x62]) }])
    expect(response.statusCode).toBe(400)
  })
})

describe('a session before the body', () => {
  it.each([
    ['no satoken', {}],
    ['an empty satoken', { satoken: '' }],
    ['a satoken with a space', { satoken: 'abc def ghi' }],
    ['a satoken in raw UTF-8', { satoken: 'tok\u00c3\u00a9n-123456' }],
    ['a satoken with a control character', { satoken: 'token\u0001123456' }],
    ['a satoken too short to be one', { satoken: 'abc' }],
  ])('refuses an upload with %s: 401 signInRequired, nothing forwarded', async (_kind, headers) => {
    const response = await upload(
      [{ name: 'file', content: 'PNG', filename: '; filename="a.png"', type: 'image/png' }],
      headers,
    )
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ code: 401, msg: 'signInRequired', detail: 'headers.satoken' })
    expect(await forwarded()).toBe(0)
  })
})

/** Sends a request head over a real socket and resolves with the answer's head, sending `body` only if asked. */
function rawRequest(port: number, head: string, body?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      if (answer.includes('\r\n\r\n') && /\r\n\r\n[\s\S]*\}/.test(answer)) {
        socket.destroy()
        resolve(answer)
      }
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(answer))
    socket.write(head)
    if (body) socket.write(body)
  })
}

describe('uploads over real sockets', () => {
  let gateway: TestGateway
  let port: number
  const BUDGET = 3

  beforeAll(async () => {
    gateway = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      UPLOAD_RATE_PER_MINUTE: BUDGET,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await gateway?.close()
  })

  const FIVE_MIB = 5 * 1024 * 1024
  const uploadHead = (length: number, token?: string) =>
    `POST ${CALLS.uploadOSS.path} HTTP/1.1\r\nHost: localhost\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n` +
    (token ? `satoken: ${token}\r\n` : '') +
    '\r\n'

  it('answers a sessionless 5 MiB upload before a byte of its body is sent, and forwards nothing', async () => {
    // only the head goes out: an answer can only come from a gateway that never waited for the body
    const answer = await rawRequest(port, uploadHead(FIVE_MIB))
    expect(answer).toMatch(/^HTTP\/1\.1 401 /)
    expect(answer).toContain('{"code":401,"msg":"signInRequired","detail":"headers.satoken"}')
    expect(await forwarded()).toBe(0)
  })

  it(`refuses upload ${BUDGET + 1} of a client within a minute with 429, before its body is read`, async () => {
    const body = multipartBody([
      {
        name: 'file',
        content: Buffer.alloc(64 * 1024, 1),
        filename: '; filename="a.png"',
        type: 'image/png',
      },
    ])
    const statuses: string[] = []
    for (let index = 0; index < BUDGET; index++) {
      const answer = await rawRequest(port, uploadHead(body.length, SESSION.satoken), body)
      statuses.push(answer.slice(9, 12))
    }
    expect(statuses).toEqual(Array(BUDGET).fill('200'))
    const refused = await rawRequest(port, uploadHead(FIVE_MIB, SESSION.satoken))
    expect(refused).toMatch(/^HTTP\/1\.1 429 /)
    expect(refused).toMatch(/\r\nretry-after: \d+\r\n/i)
    expect(refused).toContain('"msg":"tooManyRequests"')
    expect(await forwarded()).toBe(BUDGET)
    // the general budget is untouched: other calls still pass
    const other = await fetch(`http://127.0.0.1:${port}${CALLS.getAllSetting.path}`)
    expect(other.status).toBe(200)
  })
})
