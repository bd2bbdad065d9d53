import { connect, type Socket } from 'node:net'
import { CALLS } from '@tradegate/shared'

// An upload sent over a raw connection the way a client sends one: its head, then its body in pieces,
// each written once the one before has left, framed as chunks or under a Content-Length; and the
// gateway's answer as the sender read it.

export const BOUNDARY = '----rawupload'
const PIECE_BYTES = 64 * 1024
/** an endless sender's pieces are smaller, so the gateway turns its event loop many times over the bound */
const ENDLESS_PIECE_BYTES = 16 * 1024

/** A multipart body: a file part of `fileBytes`, then `after` (further parts), then the closing boundary. */
export function uploadBody(fileBytes: number, after: string | Buffer = ''): Buffer {
  return Buffer.concat([
    fileHead(),
    Buffer.alloc(fileBytes, 0xab),
    Buffer.from(after),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** The opening boundary and head of the file part. */
export function fileHead(): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="id.jpg"\r\n` +
      'Content-Type: image/jpeg\r\n\r\n',
  )
}

/** A text part as it follows a file part (the file's line break first). */
export const textPartAfterFile = (text: string) =>
  `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n${text}`

export interface Answer {
  status: number
  headers: Map<string, string>
  body: string
}

export interface UploadOptions {
  port: number
  body: Buffer
  /** chunked, or under a Content-Length (the body's own, unless `declared` says otherwise) */
  chunked: boolean
  declared?: number
  token?: string
  contentType?: string
  /** the client address it connects from */
  address?: string
  /** the body is sent up to here, then waits for `release()` */
  holdAt?: number
  /** after the body, pieces of the file's bytes follow without end, as a sender that never stops */
  endless?: boolean
  /** a pause before each piece after the first: a slow but steady sender */
  paceMs?: number
}

export interface RawUpload {
  socket: Socket
  /** body bytes written so far */
  sent(): number
  /** the answer, once its head and all the body its Content-Length gives have arrived */
  answer(): Answer | null
  /** sends the rest of the body after `holdAt` */
  release(): void
  /** settles once the connection has closed: the answer read, and the error the sender met, if any */
  done: Promise<{ answer: Answer | null; error: string | null; sent: number }>
}

/**
 * Starts an upload that sends its whole body whatever the gateway answers or ends meanwhile, as a sender
 * that does not look at the answer until it has sent: only a connection closed under it stops it. Once
 * its answer is in and its body sent, it ends its side.
 */
export function startUpload(options: UploadOptions): RawUpload {
  // the gateway's end of its side stops nothing: the sender goes on until its body is sent
  const socket = connect({
    port: options.port,
    host: '127.0.0.1',
    localAddress: options.address,
    allowHalfOpen: true,
  })
  let received = Buffer.alloc(0)
  let answer: Answer | null = null
  let error: string | null = null
  let sent = 0
  let held = options.holdAt !== undefined
  let finished = false
  const endIfDone = () => {
    if (finished && answer && !socket.destroyed) socket.end()
  }
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk])
    answer ??= parseAnswer(received)
    endIfDone()
  })
  socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? String(failure)))
  const done = new Promise<{ answer: Answer | null; error: string | null; sent: number }>((resolve) =>
    socket.on('close', () => resolve({ answer, error, sent })),
  )
  const frame = (piece: Buffer) =>
    options.chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece
  const endless = Buffer.alloc(ENDLESS_PIECE_BYTES, 0xab)
  const after = () => (options.paceMs ? setTimeout(next, options.paceMs) : setImmediate(next))
  const next = () => {
    if (socket.destroyed || !socket.writable) return
    if (held && sent >= options.holdAt!) return
    const limit = held ? options.holdAt! : options.body.length
    if (sent < limit) {
      const piece = options.body.subarray(sent, Math.min(limit, sent + PIECE_BYTES))
      sent += piece.length
      socket.write(frame(piece), after)
    } else if (options.endless) {
      sent += endless.length
      socket.write(frame(endless), after)
    } else {
      if (options.chunked) socket.write('0\r\n\r\n')
      finished = true
      endIfDone()
    }
  }
  const length = options.chunked
    ? 'Transfer-Encoding: chunked\r\n'
    : `Content-Length: ${options.declared ?? options.body.length}\r\n`
  socket.write(
    `POST ${CALLS.uploadOSS.path} HTTP/1.1\r\nHost: localhost\r\n` +
      `Content-Type: ${options.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`}\r\n${length}` +
      (options.token ? `satoken: ${options.token}\r\n` : '') +
      '\r\n',
    () => next(),
  )
  return {
    socket,
    sent: () => sent,
    answer: () => answer,
    release: () => {
      held = false
      next()
    },
    done,
  }
}

/** The answer in `bytes` once all of it has arrived (its head and its Content-Length of body), else null. */
function parseAnswer(bytes: Buffer): Answer | null {
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const headers = new Map<string, string>()
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  const length = Number(headers.get('content-length'))
  const body = bytes.subarray(end + 4)
  if (!Number.isInteger(length) || body.length < length) return null
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: body.subarray(0, length).toString('utf8'),
  }
}
