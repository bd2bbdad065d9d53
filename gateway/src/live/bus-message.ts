import type { ResyncFrame, UpstreamFrame } from '@tradegate/shared'

// What travels on the bus: a small header, written once by whoever ingests the frame (the feed, or the
// feed role for a resync), and the client frame's bytes. The hub, the book followers and the bus read
// the header; the frame's bytes are never parsed or re-encoded on their way to the sockets.
//
// On Redis (messages and stored snapshots) a message is text: the header as JSON, a newline, then the
// frame. JSON.stringify escapes every control character, so the header's first raw newline ends it.

export interface FrameHeader {
  /** the concrete topic (never a wildcard): it names the member a wildcard's snapshot keeps */
  topic: string
  /** the frame's type: DETAIL, DEPTH, POSITION, resync, ... */
  type: string
  /** when the upstream made it (epoch ms): newer frames supersede older ones */
  ts: number
  /** DEPTH: the book's seq once this frame is applied */
  seq?: number
  /** DEPTH: the frame holds the whole book, not an update */
  book?: boolean
  /** KLINE: the candle's start, so conflation keeps each candle's last frame */
  candle?: number
  /** per-user events: whose */
  user?: string
}

export interface BusMessage {
  readonly header: FrameHeader
  /** the client frame's bytes, shared by every socket it is written to */
  readonly frame: Buffer
  /**
   * The frame's bytes if a reader has made them, else its JSON text, made for this call and not kept.
   * The bus encodes with it: bytes kept on a message live as long as it does (a book keeps its snapshot
   * until the next update), outside V8's heap.
   */
  readonly frameOrText?: () => Buffer | string
}

const NEWLINE = 0x0a
const OPEN_BRACE = 0x7b
const LEGACY_LENGTH_BYTES = 2

/** The header a feed frame carries on `topic`, its first (concrete) topic. */
export function headerOf(topic: string, frame: UpstreamFrame | ResyncFrame): FrameHeader {
  const header: FrameHeader = { topic, type: frame.type, ts: frame.ts }
  switch (frame.type) {
    case 'DEPTH':
      header.seq = frame.data.seq
      header.book = frame.data.snapshot
      break
    case 'KLINE':
      header.candle = frame.data.time
      break
    case 'DETAIL':
    case 'TRADE':
    case 'HEARTBEAT':
    case 'resync':
      break
    default:
      header.user = frame.userId
  }
  return header
}

/**
 * A frame as a bus message, serialised once, when its bytes are first read. Most frames are read by no one:
 * the memory bus reads a frame only for a topic with a socket on it, and a book's snapshot is replaced by
 * its next update many times a second. Serialising every frame was 6% of an idle gateway's profiled busy
 * time (loadtests/LIFECYCLE.md, "2026-11-29 (afternoon)"). The frame is never changed once it is a message
 * (the feed's frames and the books' states are made new, not updated), so a later reader gets the bytes an
 * earlier one would have. A class, not an object literal: a literal with a getter is a dictionary-mode
 * object plus a closure and its context, made some 800 times a second by an idle gateway's feed alone.
 */
class LazyBusMessage implements BusMessage {
  readonly header: FrameHeader
  private bytes: Buffer | null = null

  constructor(
    topic: string,
    private readonly source: UpstreamFrame | ResyncFrame,
  ) {
    this.header = headerOf(topic, source)
  }

  get frame(): Buffer {
    return (this.bytes ??= Buffer.from(JSON.stringify(this.source)))
  }

  frameOrText(): Buffer | string {
    return this.bytes ?? JSON.stringify(this.source)
  }
}

export function busMessage(topic: string, frame: UpstreamFrame | ResyncFrame): BusMessage {
  return new LazyBusMessage(topic, frame)
}

/**
 * The message as Redis carries it: `prefix`, the header, a newline, the frame. Text, not bytes: ioredis
 * writes a command of strings as one string, while a single Buffer among its arguments made it copy the
 * whole command into a new buffer; and a string is young-generation garbage a scavenge takes, where each
 * buffer past Node's small pool was its own malloc, freed only when V8 collected it, and grew glibc's
 * heap (loadtests/LIFECYCLE.md).
 */
export function encodeBusMessage(message: BusMessage, prefix = ''): string {
  const frame = message.frameOrText ? message.frameOrText() : message.frame
  return `${prefix}${JSON.stringify(message.header)}\n${typeof frame === 'string' ? frame : frame.toString()}`
}

/**
 * A message read back from `bytes` (from `offset`); null for bytes no bus wrote. The frame is copied
 * out, so it outlives the buffer it came in (a Redis reply shares its buffer with the rest of a chunk).
 * Builds before the text encoding led with the header's length in two bytes (big endian), never a
 * `{`: their frames and stored snapshots are read too, so that during a rolling upgrade the new
 * instances follow a feed holder still on the old build (docs/operations.md, "Scaling out").
 */
export function decodeBusMessage(bytes: Buffer, offset = 0): BusMessage | null {
  const text = bytes[offset] === OPEN_BRACE
  const headerStart = text ? offset : offset + LEGACY_LENGTH_BYTES
  const headerEnd = text
    ? bytes.indexOf(NEWLINE, offset)
    : bytes.length < headerStart
      ? -1
      : headerStart + bytes.readUInt16BE(offset)
  if (headerEnd < 0 || headerEnd > bytes.length) return null
  let header: unknown
  try {
    header = JSON.parse(bytes.toString('utf8', headerStart, headerEnd))
  } catch {
    return null
  }
  if (!isHeader(header)) return null
  return { header, frame: Buffer.from(bytes.subarray(text ? headerEnd + 1 : headerEnd)) }
}

function isHeader(value: unknown): value is FrameHeader {
  if (typeof value !== 'object' || value === null) return false
  const { topic, type, ts } = value as Partial<FrameHeader>
  return typeof topic === 'string' && typeof type === 'string' && typeof ts === 'number'
}
