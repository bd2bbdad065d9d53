import { createRequire } from 'node:module'
import type { Readable, Writable } from 'node:stream'
import { UPLOAD_IMAGE_TYPES } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'

// An upload's body split into parts as it arrives, by busboy's own splitter (Dicer, inside
// @fastify/busboy), with the gateway's checks on top: every part header the checks depend on is read
// here, each text part is decoded by its declared charset, and the parts are handed on one after
// another as they come, a file's bytes without being gathered (uploads.ts rebuilds them for the upstream).
//
// Why the library and not the gateway's own parser, which this replaced: the same uploads side by side
// (loadtests/bench/multipart-parsers.ts, in git before the harness was cut down: ten 5 MiB uploads at
// once in 64 KiB chunks, 300 per parser, each parser twice in a child of its own; 2-core host at load
// average 25 from other sessions, so read the ranges, not the digits) cost our parser, given each body whole, 11.5–12.0 ms of CPU per upload
// and 181–188 MB of peak RSS; busboy 7.2–8.1 ms and 145–159 MB; busboy's splitter with these checks on
// top 7.2–8.4 ms and 145–152 MB. Ours was not 10% better on either (it was worse on both), so the library
// splits and ours only checks. busboy's own part events are not used: they decode text with a lenient
// decoder, drop a file part's charset and keep only a header's first value, all of which the checks need.
// What the splitter does not report is no longer refused: a folded header line reaches the checks
// unfolded, and a header line without a colon ends the part's headers; either way the upstream gets only
// the headers the gateway writes from what it checked.

// Dicer is busboy's splitter and ships inside @fastify/busboy (its types beside it); it is not a
// package of its own to import
const require = createRequire(import.meta.url)
const Dicer = require('@fastify/busboy/deps/dicer/lib/Dicer.js') as new (config: {
  boundary: string
  maxHeaderPairs: number
  partHwm: number
}) => Writable

export interface MultipartLimits {
  parts: number
  files: number
  /** the deployment's upload size, for one file */
  fileBytes: number
  /** a text part is read whole by the Chinese rule, so it gets the size of a text field */
  textPartBytes: number
  /** the whole body, boundaries and all */
  bodyBytes: number
}

/** A part the upstream may take as a file: a named image of a type the upload calls accept. */
export interface FileHead {
  name: string
  filename: string
  contentType: string
}

/** Every other part: its bytes decoded by their declared charset, to be checked and sent as UTF-8. */
export interface TextPart {
  kind: 'text'
  name: string
  /** empty for a plain field */
  filename: string
  /** the part's media type without parameters (`text/plain` when it gives none) */
  mediaType: string
  text: string
}

/**
 * What receives an upload's parts, one after another in the order they came: each text part whole and
 * decoded, each file part's head and then its bytes as they arrive. A throw refuses the body.
 */
export interface PartVisitor {
  text(part: TextPart): void
  fileHead(head: FileHead): void
  /**
   * A piece of the file part last headed, as it arrived (never copied); false when no more may come
   * until `resume` is called: the body is then read no further, so a slow upstream slows the client
   */
  fileBytes(piece: Buffer, resume: () => void): boolean
  fileEnd(): void
}

const IMAGE_TYPES = new Set<string>(UPLOAD_IMAGE_TYPES)
const MAX_HEADER_PAIRS = 8
// transfer encodings under which the bytes are the content; anything else (base64, quoted-printable)
// would let the upstream decode text the gateway never saw
const IDENTITY_ENCODINGS = new Set(['7bit', '8bit', 'binary'])
const utf8 = new TextDecoder('utf-8', { fatal: true })

const refused = (): GatewayError => new GatewayError(400, 'badRequest', 'body')

/** A body's late error (the client went away after its parts were read) has nobody left to tell. */
function ignoreError(): void {}

/** The boundary of a `multipart/form-data` content type, or null when it has none or an unusable one. */
export function boundaryOf(contentType: string | undefined): string | null {
  const params = contentType ? parseParams(contentType) : null
  if (!params || params.value.toLowerCase() !== 'multipart/form-data') return null
  const boundary = params.params.get('boundary')
  return boundary && /^[0-9A-Za-z'()+_,./:=? -]{1,70}$/.test(boundary) ? boundary : null
}

/**
 * Splits a multipart body read from `body` into checked parts, handed to `visitor` as they arrive and in
 * order; resolves once the body has ended and every part has been handed on, rejects with 400 for
 * anything malformed or ambiguous and 413 past a part's limit. Only a text part is held whole (it is
 * checked whole, within its small limit); a file part's bytes pass through as they come. Once `stop`
 * is aborted nothing more is read or handed on, as after a refusal.
 */
export function splitMultipart(
  body: Readable,
  boundary: string,
  limits: MultipartLimits,
  visitor: PartVisitor,
  stop: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const splitter = new Dicer({ boundary, maxHeaderPairs: MAX_HEADER_PAIRS, partHwm: 64 * 1024 })
    // each part is read when the one before it has been handed on: a part waits in the splitter,
    // which reads no further past its own small buffer
    let turn = Promise.resolve()
    let failed = false
    let started = 0
    let headed = 0
    let files = 0
    let received = 0
    const countBytes = (chunk: Buffer): void => {
      // a body sent without a length is held to the limit as it comes
      if ((received += chunk.length) > limits.bodyBytes) fail(new GatewayError(413, 'payloadTooLarge'))
    }
    // Once the parts are read or refused, the body keeps none of this function's listeners: a
    // kept-alive connection holds its last request until the next one comes (up to the keep-alive
    // timeout), and a listener here would keep the visitor and what it holds with it
    const letGo = (): void => {
      body.off('data', countBytes)
      body.off('error', fail)
      body.on('error', ignoreError)
      stop.removeEventListener('abort', stopped)
    }
    const fail = (error: unknown): void => {
      if (failed) return
      failed = true
      letGo()
      body.unpipe(splitter)
      // the rest of the body is not wanted: the answer drops it (unread-body.ts)
      body.pause()
      reject(error instanceof GatewayError ? error : refused())
    }
    const stopped = (): void => fail(refused())
    const isFailed = () => failed
    splitter.on('error', fail)
    splitter.on('preamble', (preamble: Readable) =>
      preamble.on('data', (bytes: Buffer) => bytes.length > 0 && fail(refused())),
    )
    // nothing but an optional line break may follow the closing delimiter
    splitter.on('trailer', (bytes: Buffer) => bytes.toString('latin1') !== '\r\n' && fail(refused()))
    splitter.on('part', (stream: Readable) => {
      if (++started > limits.parts) return fail(refused())
      let hasHeader = false
      stream.on('error', fail)
      stream.once('header', (header: Record<string, string[]>) => {
        hasHeader = true
        headed++
        try {
          const part = partOf(header, limits)
          if (part.kind === 'binary' && ++files > limits.files) throw refused()
          turn = turn.then(() => (failed ? undefined : readPart(part, stream, visitor, isFailed)))
          // a refusal is told at once, not when the body has ended
          turn.catch(fail)
        } catch (error) {
          fail(error)
        }
      })
      // a part whose head never ended has no header at all
      stream.once('end', () => hasHeader || fail(refused()))
    })
    splitter.once('finish', () => {
      if (headed === 0) return fail(refused())
      turn.then(() => {
        if (failed) return
        letGo()
        resolve()
      }, fail)
    })
    body.on('data', countBytes)
    body.on('error', fail)
    stop.addEventListener('abort', stopped)
    body.pipe(splitter)
  })
}

type PartHead =
  | { kind: 'binary'; head: FileHead; limit: number }
  | {
      kind: 'text'
      name: string
      filename: string
      mediaType: string
      charset: string | undefined
      limit: number
    }

/** A part's header read and checked: a file or a text part, and its limit. */
function partOf(header: Record<string, string[]>, limits: MultipartLimits): PartHead {
  const headers = readHeaders(header)
  const disposition = parseParams(headers.get('content-disposition') ?? '')
  if (!disposition || disposition.value.toLowerCase() !== 'form-data') throw refused()
  const name = disposition.params.get('name')
  // filename* (RFC 5987) names the file a second way; one name per part leaves nothing to interpret
  if (name === undefined || disposition.params.has('filename*')) throw refused()
  const filename = disposition.params.get('filename') ?? ''
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase()
  if (encoding !== undefined && !IDENTITY_ENCODINGS.has(encoding)) throw refused()
  const type = parseParams(headers.get('content-type') ?? 'text/plain')
  if (!type) throw refused()
  const mediaType = type.value.toLowerCase()
  if (filename !== '' && IMAGE_TYPES.has(mediaType))
    return { kind: 'binary', head: { name, filename, contentType: mediaType }, limit: limits.fileBytes }
  const charset = type.params.get('charset')
  return { kind: 'text', name, filename, mediaType, charset, limit: limits.textPartBytes }
}

/** One part's content read and handed to the visitor: a text part whole, a file part as it arrives. */
function readPart(
  part: PartHead,
  stream: Readable,
  visitor: PartVisitor,
  failed: () => boolean,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const content: Buffer[] = []
    let bytes = 0
    const resume = () => stream.resume()
    if (part.kind === 'binary') visitor.fileHead(part.head)
    stream.on('data', (piece: Buffer) => {
      // the body was refused elsewhere: nothing more is handed on
      if (failed()) return
      bytes += piece.length
      if (bytes > part.limit) {
        stream.removeAllListeners('data')
        reject(new GatewayError(413, 'payloadTooLarge'))
        return
      }
      if (part.kind === 'text') content.push(piece)
      else if (!visitor.fileBytes(piece, resume)) stream.pause()
    })
    stream.once('end', () => {
      if (bytes > part.limit || failed()) return resolve()
      try {
        if (part.kind === 'binary') visitor.fileEnd()
        else {
          const text = decodeText(Buffer.concat(content), part.charset)
          visitor.text({
            kind: 'text',
            name: part.name,
            filename: part.filename,
            mediaType: part.mediaType,
            text,
          })
        }
        resolve()
      } catch (error) {
        reject(error)
      }
    })
  })
}

/**
 * Part headers by lower-case name, from the splitter's header (each value as latin1 text of its bytes);
 * repeated headers and values that are not UTF-8 are refused.
 */
function readHeaders(header: Record<string, string[]>): Map<string, string> {
  const headers = new Map<string, string>()
  for (const [name, values] of Object.entries(header)) {
    if (values.length !== 1 || !/^[a-z0-9-]+$/.test(name)) throw refused()
    let value: string
    try {
      value = utf8.decode(Buffer.from(values[0]!, 'latin1'))
    } catch {
      throw refused()
    }
    headers.set(name, value.trim())
  }
  return headers
}

/** A text part's bytes in its declared charset (UTF-8 when none); an unknown charset or bad bytes are refused. */
function decodeText(content: Buffer, charset: string | undefined): string {
  let decoder: InstanceType<typeof TextDecoder>
  try {
    decoder = charset === undefined ? utf8 : new TextDecoder(charset, { fatal: true })
  } catch {
    throw refused()
  }
  // WHATWG maps a few dangerous encodings (ISO-2022-KR, HZ) to "replacement": their text is unknowable
  if (decoder.encoding === 'replacement') throw refused()
  try {
    return decoder.decode(content)
  } catch {
    throw refused()
  }
}

interface Parameters {
  value: string
  params: Map<string, string>
}

/** `value; key=token; key="quoted"` with lower-case keys; repeated keys and stray text are refused (null). */
function parseParams(header: string): Parameters | null {
  const match = /^\s*([^;\s]+)\s*/.exec(header)
  if (!match) return null
  const params = new Map<string, string>()
  let rest = header.slice(match[0].length)
  while (rest.length > 0) {
    const param = /^;\s*([A-Za-z0-9*_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s"]*))\s*/.exec(rest)
    if (!param) return null
    const key = param[1]!.toLowerCase()
    if (params.has(key)) return null
    params.set(key, param[2] !== undefined ? param[2].replace(/\\(.)/g, '$1') : param[3]!)
    rest = rest.slice(param[0].length)
  }
  return { value: match[1]!, params }
}
