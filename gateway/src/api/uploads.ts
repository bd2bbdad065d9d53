import { createHash, randomBytes } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TOKEN_HEADER } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'
import { checkRawText } from './guard'
import { boundaryOf, readMultipart, type FormPart, type MultipartLimits } from './multipart'
import type { UploadBudget } from './upload-budget'

// Uploads with a session: bounded before their body is read (so many in flight per client, per user
// and per instance, and so many a minute per address and per user), then split as they arrive, checked
// part by part, and rebuilt for the upstream from what was checked. Every byte an upload keeps is
// counted until its answer has gone, so what uploads hold is known rather than guessed.

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
  /** bytes of upload bodies the gateway holds now: read, not yet answered */
  heldBytes = 0

  constructor(private readonly limits: UploadSlotLimits) {}

  get uploadsInFlight(): number {
    return this.inFlight
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
    let held = 0
    let released = false
    return {
      hold: (bytes) => {
        if (released) return
        held += bytes
        this.heldBytes += bytes
      },
      release: () => {
        if (released) return
        released = true
        this.inFlight--
        this.heldBytes -= held
        drop(this.byClient, client)
        drop(this.byUser, user)
      },
    }
  }
}

/** One upload's place in flight: what it holds is counted until it is released, once. */
export interface UploadSlot {
  hold(bytes: number): void
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

/** An upload's parts as the upstream receives them: one multipart body in pieces, and its length. */
export interface UploadBody {
  pieces: Buffer[]
  contentType: string
  bytes: number
}

/**
 * Reads an upload's body as it arrives, within its limit, into checked parts (multipart.ts), counting
 * every byte kept against the request's slot.
 */
export function readUploadParts(
  request: FastifyRequest,
  body: Readable,
  limits: MultipartLimits,
): Promise<FormPart[]> {
  const boundary = boundaryOf(request.headers['content-type'])
  if (!boundary) return Promise.reject(new GatewayError(400, 'badRequest', 'body'))
  if (Number(request.headers['content-length'] ?? 0) > limits.bodyBytes)
    return Promise.reject(new GatewayError(413, 'payloadTooLarge'))
  const slot = request.uploadSlot
  return readMultipart(body, boundary, limits, (bytes) => slot?.hold(bytes))
}

/**
 * The Chinese rule on every part's name and file name and on every text part, then the parts rebuilt:
 * images as they came, text as UTF-8, each with only the headers the gateway writes itself.
 */
export function checkedUploadBody(app: FastifyInstance, parts: readonly FormPart[]): UploadBody {
  const countChinese = () => app.metrics.rejectedRequests.inc({ reason: 'chinese' })
  const boundary = `----tradegate${randomBytes(12).toString('hex')}`
  const pieces: Buffer[] = []
  for (const part of parts) {
    checkRawText(part.name, 'body', countChinese)
    checkRawText(part.filename, 'body', countChinese)
    if (part.kind === 'text') checkRawText(part.text, 'body', countChinese)
    const filename = part.filename === '' ? '' : `; filename="${quoted(part.filename)}"`
    const type =
      part.kind === 'binary'
        ? part.contentType
        : part.filename === ''
          ? null
          : `${part.mediaType}; charset=utf-8`
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"${filename}\r\n` +
          (type ? `Content-Type: ${type}\r\n` : '') +
          '\r\n',
      ),
    )
    if (part.kind === 'binary') pieces.push(...part.content)
    else pieces.push(Buffer.from(part.text))
    pieces.push(CRLF)
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    pieces,
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes: pieces.reduce((sum, piece) => sum + piece.length, 0),
  }
}

const CRLF = Buffer.from('\r\n')

/** A name as a quoted string of a part header, escaped as browsers escape it. */
function quoted(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')
}
