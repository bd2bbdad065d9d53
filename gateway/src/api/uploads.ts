import { createHash, randomBytes } from 'node:crypto'
import { PassThrough, type Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TOKEN_HEADER } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'
import { checkRawText } from './guard'
import { boundaryOf, splitMultipart, type MultipartLimits, type PartVisitor } from './multipart'
import type { UploadBudget } from './upload-budget'

// Uploads with a session: bounded before their body is read (so many in flight per client, per user
// and per instance, and so many a minute per address and per user), then split as they arrive, checked
// part by part, and rebuilt for the upstream from what was checked while they stream to it: an upload
// holds at most its stream's window, not its file. What uploads hold is counted, not guessed.

/** A refused upload is tried again after this long: an upload of a few MiB takes seconds to send. */
const SLOT_RETRY_AFTER_SECONDS = 5

export interface UploadSlotLimits {
  perClient: number
  perUser: number
  perInstance: number
}

/** The uploads in flight, by client address, by user and in all, and the bytes they hold. */
export class UploadSlots {
  private readonly byClient = new Map<string, number>()
  private readonly byUser = new Map<string, number>()
  private inFlight = 0
  /** what each upload in flight holds now */
  private readonly holders = new Set<() => number>()

  constructor(private readonly limits: UploadSlotLimits) {}

  get uploadsInFlight(): number {
    return this.inFlight
  }

  /** bytes of upload bodies the gateway holds now: read from clients, not yet passed to the upstream */
  get heldBytes(): number {
    let held = 0
    for (const holding of this.holders) held += holding()
    return held
  }

  /**
   * Takes a slot for an upload of `client` and `user`, or refuses: 429 when the client or user has as
   * many in flight as allowed, 503 when the instance has.
   */
  take(client: string, user: string): UploadSlot {
    if ((this.byClient.get(client) ?? 0) >= this.limits.perClient)
      throw new GatewayError(429, 'tooManyRequests', 'uploads')
    if ((this.byUser.get(user) ?? 0) >= this.limits.perUser)
      throw new GatewayError(429, 'tooManyRequests', 'uploads')
    if (this.inFlight >= this.limits.perInstance) throw new GatewayError(503, 'serviceUnavailable', 'uploads')
    this.inFlight++
    this.byClient.set(client, (this.byClient.get(client) ?? 0) + 1)
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1)
    let holding: (() => number) | null = null
    let released = false
    return {
      holds: (read) => {
        if (released) return
        holding = read
        this.holders.add(read)
      },
      release: () => {
        if (released) return
        released = true
        this.inFlight--
        if (holding) this.holders.delete(holding)
        drop(this.byClient, client)
        drop(this.byUser, user)
      },
    }
  }
}

/** One upload's place in flight: what it holds is counted until it is released, once. */
export interface UploadSlot {
  /** `read` tells what the upload holds at the moment */
  holds(read: () => number): void
  release(): void
}

function drop(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1
  if (left > 0) counts.set(key, left)
  else counts.delete(key)
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the uploads in flight and the bytes they hold */
    uploadSlots: UploadSlots
  }
  interface FastifyRequest {
    /** the slot an upload holds until its answer has gone */
    uploadSlot: UploadSlot | null
  }
}

export interface UploadGate {
  slots: UploadSlots
  /** uploads a minute per client address */
  perAddress: UploadBudget
  /** uploads a minute per user, whatever address they come from */
  perUser: UploadBudget
}

/**
 * Before an upload's body is read: the session's user, then a slot in flight, then the minute's budget
 * of the address and of the user. A refusal is answered with the body unread.
 */
export async function admitUpload(
  app: FastifyInstance,
  gate: UploadGate,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const user = await uploaderOf(app, request.headers[TOKEN_HEADER] as string)
  let slot: UploadSlot
  try {
    slot = gate.slots.take(request.ip, user)
  } catch (error) {
    app.metrics.rejectedRequests.inc({ reason: 'upload_budget' })
    reply.header('retry-after', SLOT_RETRY_AFTER_SECONDS)
    throw error
  }
  request.uploadSlot = slot
  // 'close' comes once the answer is written or the connection is gone, whichever way the upload ends
  reply.raw.once('close', slot.release)
  for (const [budget, key] of [
    [gate.perAddress, request.ip],
    [gate.perUser, user],
  ] as const) {
    const retryAfter = await budget.take(key)
    if (retryAfter === 0) continue
    app.metrics.rejectedRequests.inc({ reason: 'upload_budget' })
    reply.header('retry-after', retryAfter)
    throw new GatewayError(429, 'tooManyRequests', 'uploads')
  }
}

/**
 * The user an upload is counted for. A token the upstream does not know is refused here, before its
 * body is read; while the upstream cannot say, the token stands for its user (hashed: keys may reach
 * Redis, tokens never do).
 */
async function uploaderOf(app: FastifyInstance, token: string): Promise<string> {
  const resolved = await app.users.resolve(token)
  if ('userId' in resolved) return resolved.userId
  if (resolved.error === 'notAuthorised') {
    app.metrics.rejectedRequests.inc({ reason: 'session' })
    throw new GatewayError(401, 'signInRequired', `headers.${TOKEN_HEADER}`)
  }
  return `token:${createHash('sha256').update(token).digest('base64url')}`
}

/**
 * An upload's body as the upstream receives it: its checked parts rebuilt, streamed as they are read
 * (sent chunked: the rebuilt length is known only at the end).
 */
export interface UploadBody {
  stream: Readable
  contentType: string
  /**
   * the refusal of a part read after the stream began (a text part after the file, a part over its
   * limit, a malformed end): the stream has failed with it, so the upstream's request is abandoned
   * unfinished, and the client is answered with it
   */
  failure: GatewayError | null
  /**
   * stops reading the body: the client was answered before it had all arrived (unread-body.ts takes
   * the rest), and an upstream request it was streaming to is abandoned unfinished
   */
  abandon(): void
}

/**
 * The bytes held between the client and the upstream for one upload: the stream's buffer on each side
 * of it. Writing waits for the upstream past this, so the client's socket is read no faster than the
 * upstream takes the bytes.
 */
const STREAM_WINDOW_BYTES = 64 * 1024

/**
 * Reads an upload's body as it arrives, within its limit, and resolves with its rebuilt stream once
 * every part before the first file has been read and checked (or the whole body, when it has no file):
 * no byte reaches the upstream before those checks. Each part is checked before it is written to the
 * stream: the Chinese rule on every part's name and file name and on every text part; images go as
 * they came, text as UTF-8, each with only the headers the gateway writes itself. The request's
 * `uploadForm` is the upload from the moment its body is read, so an answer that comes first can stop it.
 */
export function readUpload(
  app: FastifyInstance,
  request: FastifyRequest,
  body: Readable,
  limits: MultipartLimits,
): Promise<UploadBody> {
  const boundary = boundaryOf(request.headers['content-type'])
  if (!boundary) return Promise.reject(new GatewayError(400, 'badRequest', 'body'))
  if (Number(request.headers['content-length'] ?? 0) > limits.bodyBytes)
    return Promise.reject(new GatewayError(413, 'payloadTooLarge'))
  const countChinese = () => app.metrics.rejectedRequests.inc({ reason: 'chinese' })
  const outBoundary = `----tradegate${randomBytes(12).toString('hex')}`
  const stream = new PassThrough({ highWaterMark: STREAM_WINDOW_BYTES })
  // a failure is answered from `failure`; the stream's own error event has nobody else to tell
  stream.on('error', ignoreError)
  request.uploadSlot?.holds(() => stream.readableLength + stream.writableLength)
  const stop = new AbortController()
  const upload: UploadBody = {
    stream,
    contentType: `multipart/form-data; boundary=${outBoundary}`,
    failure: null,
    abandon: () => stop.abort(),
  }
  request.uploadForm = upload
  return new Promise((resolve, reject) => {
    let started = false
    const start = () => {
      if (started) return
      started = true
      resolve(upload)
    }
    const head = (name: string, filename: string, type: string | null) => {
      checkRawText(name, 'body', countChinese)
      checkRawText(filename, 'body', countChinese)
      const named = filename === '' ? '' : `; filename="${quoted(filename)}"`
      stream.write(
        `--${outBoundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"${named}\r\n` +
          (type ? `Content-Type: ${type}\r\n` : '') +
          '\r\n',
      )
    }
    const visitor: PartVisitor = {
      text: (part) => {
        checkRawText(part.text, 'body', countChinese)
        head(part.name, part.filename, part.filename === '' ? null : `${part.mediaType}; charset=utf-8`)
        stream.write(part.text)
        stream.write(CRLF)
      },
      fileHead: (file) => {
        head(file.name, file.filename, file.contentType)
        // every part before the file has passed: the upstream may now be sent what is checked
        start()
      },
      fileBytes: (piece, resume) => {
        if (stream.write(piece)) return true
        stream.once('drain', resume)
        return false
      },
      fileEnd: () => stream.write(CRLF),
    }
    splitMultipart(body, boundary, limits, visitor, stop.signal).then(
      () => {
        stream.end(`--${outBoundary}--\r\n`)
        start()
      },
      (error: GatewayError) => {
        upload.failure = error
        stream.destroy(error)
        if (started) return
        started = true
        reject(error)
      },
    )
  })
}

/** A stream's late error (the upstream's request was abandoned) has nobody left to tell. */
function ignoreError(): void {}

const CRLF = Buffer.from('\r\n')

/** A name as a quoted string of a part header, escaped as browsers escape it. */
function quoted(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')
}
