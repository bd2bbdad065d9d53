import { UPLOAD_IMAGE_TYPES } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'

// An upload's body, read whole within its limit, split into parts by this one strict parser: every
// header the checks depend on is seen here, and the upstream receives only the parts rebuilt from it.

export interface MultipartLimits {
  parts: number
  files: number
  /** the deployment's upload size, for one file */
  fileBytes: number
  /** a text part is read whole by the Chinese rule, so it gets the size of a text field */
  textPartBytes: number
}

/** A part the upstream may take as a file: a named image of a type the upload calls accept. */
export interface BinaryPart {
  kind: 'binary'
  name: string
  filename: string
  contentType: string
  content: Buffer
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

export type FormPart = BinaryPart | TextPart

const IMAGE_TYPES = new Set<string>(UPLOAD_IMAGE_TYPES)
const CRLF = Buffer.from('\r\n')
const HEADER_END = Buffer.from('\r\n\r\n')
const MAX_HEADER_BYTES = 1024
// transfer encodings under which the bytes are the content; anything else (base64, quoted-printable)
// would let the upstream decode text the gateway never saw
const IDENTITY_ENCODINGS = new Set(['7bit', '8bit', 'binary'])
const utf8 = new TextDecoder('utf-8', { fatal: true })

const refused = (): GatewayError => new GatewayError(400, 'badRequest', 'body')

/** The boundary of a `multipart/form-data` content type, or null when it has none or an unusable one. */
export function boundaryOf(contentType: string | undefined): string | null {
  const params = contentType ? parseParams(contentType) : null
  if (!params || params.value.toLowerCase() !== 'multipart/form-data') return null
  const boundary = params.params.get('boundary')
  return boundary && /^[0-9A-Za-z'()+_,./:=? -]{1,70}$/.test(boundary) ? boundary : null
}

/** Splits a whole multipart body into checked parts; throws 400 for anything malformed or ambiguous. */
export function parseMultipart(body: Buffer, boundary: string, limits: MultipartLimits): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`)
  if (!body.subarray(0, delimiter.length).equals(delimiter)) throw refused()
  const parts: FormPart[] = []
  let files = 0
  let position = delimiter.length
  for (;;) {
    const after = body.subarray(position, position + 2).toString('latin1')
    if (after === '--') {
      // nothing but an optional line break may follow the closing delimiter
      const rest = body.subarray(position + 2)
      if (rest.length > 0 && !rest.equals(CRLF)) throw refused()
      return parts
    }
    if (after !== '\r\n') throw refused()
    const start = position + 2
    const end = body.indexOf(`\r\n--${boundary}`, start, 'latin1')
    if (end < 0) throw refused()
    const part = readPart(body.subarray(start, end), limits)
    if (part.kind === 'binary') files++
    parts.push(part)
    if (parts.length > limits.parts || files > limits.files) throw refused()
    position = end + 2 + delimiter.length
  }
}

function readPart(bytes: Buffer, limits: MultipartLimits): FormPart {
  const headerEnd = bytes.indexOf(HEADER_END)
  if (headerEnd < 0 || headerEnd > MAX_HEADER_BYTES) throw refused()
  const headers = readHeaders(bytes.subarray(0, headerEnd))
  const content = bytes.subarray(headerEnd + HEADER_END.length)
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
  if (filename !== '' && IMAGE_TYPES.has(mediaType)) {
    if (content.length > limits.fileBytes) throw new GatewayError(413, 'payloadTooLarge')
    return { kind: 'binary', name, filename, contentType: mediaType, content: Buffer.from(content) }
  }
  if (content.length > limits.textPartBytes) throw new GatewayError(413, 'payloadTooLarge')
  return { kind: 'text', name, filename, mediaType, text: decodeText(content, type.params.get('charset')) }
}

/** Part headers by lower-case name; folded lines, repeats and non-UTF-8 bytes are refused. */
function readHeaders(block: Buffer): Map<string, string> {
  let text: string
  try {
    text = utf8.decode(block)
  } catch {
    throw refused()
  }
  const headers = new Map<string, string>()
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon <= 0 || /^[\t ]/.test(line)) throw refused()
    const name = line.slice(0, colon).toLowerCase()
    if (!/^[a-z0-9-]+$/.test(name) || headers.has(name)) throw refused()
    headers.set(name, line.slice(colon + 1).trim())
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
