import type { Metrics } from '../plugins/app/metrics'

// Backpressure: the one check of a socket's write buffer before the hub writes it a frame, and the
// counts of what each pass wrote and skipped.

/** What the hub writes to: a client socket, seen through its buffer and its frames. */
export interface HubSocket {
  readonly open: boolean
  /** bytes accepted for this client and not yet handed to the kernel */
  bufferedBytes(): number
  /** writes one complete wire frame */
  writeFrame(frame: Buffer): void
  /** which per-user event types (POSITION, ...) the socket asked for */
  readonly userTypes: ReadonlySet<string>
  /** closes with 1013 because the client reads slower than its topics tick */
  closeSlow(): void
}

export interface BackpressureOptions {
  softBufferBytes: number
  hardBufferBytes: number
  metrics: Pick<Metrics, 'wsMessagesSent' | 'wsDropped'>
}

/**
 * Room to write; full (past the soft limit: the caller skips or conflates the frame); or closed (past
 * the hard limit, where the socket is closed for reading too slowly).
 */
export type Room = 'open' | 'full' | 'closed'

export class Backpressure {
  private readonly conflated: { inc(value?: number): void }
  private readonly slowClosed: { inc(value?: number): void }

  constructor(private readonly options: BackpressureOptions) {
    this.conflated = options.metrics.wsDropped.labels('conflated')
    this.slowClosed = options.metrics.wsDropped.labels('slow_close')
  }

  roomIn(socket: HubSocket): Room {
    const buffered = socket.bufferedBytes()
    if (buffered <= this.options.softBufferBytes) return 'open'
    if (buffered <= this.options.hardBufferBytes) return 'full'
    this.slowClosed.inc()
    socket.closeSlow()
    return 'closed'
  }

  /** Counts one pass over a topic's sockets: frames written, and frames skipped for full sockets. */
  count(sent: number, conflated: number): void {
    if (sent) this.options.metrics.wsMessagesSent.inc(sent)
    if (conflated) this.conflated.inc(conflated)
  }
}
