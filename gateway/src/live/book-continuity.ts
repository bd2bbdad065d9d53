import { seqStanding } from '@tradegate/shared'
import type { Bus } from './bus'
import type { BusMessage } from './bus-message'
import type { Backpressure, HubSocket } from './backpressure'
import { encodeTextFrame } from './wire-frame'

// Book continuity: the sockets of one book topic (DEPTH) that get every frame follow its numbered
// stream without a hole. A snapshot goes to every one; an update only to a socket that holds the
// update before it; a socket that skipped one, or whose book is older, is sent the whole book
// instead. The sequence rule is the shared one (seqStanding); only the header's seq is read.

export class BookContinuity {
  /** seq of the last frame on the topic; -1 before the first */
  private seq = -1
  /** sockets that missed an update (or joined before there was a book): they get the book next */
  private readonly resync = new Set<HubSocket>()
  /** sockets sent the book outside the stream -> its seq; updates up to it are already in it */
  private readonly floors = new Map<HubSocket, number>()

  constructor(
    private readonly topic: string,
    private readonly bus: Bus,
    private readonly backpressure: Backpressure,
  ) {}

  /** A socket joins the stream: it is sent the book held now, or the first one there will be. */
  join(socket: HubSocket): void {
    if (!socket.open) return
    const [book] = this.bus.snapshot(this.topic)
    const seq = book?.header.seq
    if (!book || seq === undefined) {
      // no book yet (or it is being reloaded): the first one available comes before any update
      this.resync.add(socket)
      return
    }
    this.floors.set(socket, seq)
    socket.writeFrame(encodeTextFrame(book.frame))
  }

  forget(socket: HubSocket): void {
    this.resync.delete(socket)
    this.floors.delete(socket)
  }

  deliver(message: BusMessage, sockets: ReadonlySet<HubSocket>): void {
    const { seq, book: snapshot = false } = message.header
    if (seq === undefined) return
    if (!snapshot && this.seq >= 0) {
      const standing = seqStanding(this.seq, seq)
      if (standing === 'old') return
      // this instance missed an update: every socket needs the book again
      if (standing === 'gap') for (const socket of sockets) this.resync.add(socket)
    }
    this.seq = seq
    if (sockets.size === 0) return
    const frame = encodeTextFrame(message.frame)
    let current: { frame: Buffer; seq: number } | null | undefined
    let sent = 0
    let conflated = 0
    for (const socket of sockets) {
      const room = this.backpressure.roomIn(socket)
      if (room === 'closed') continue
      if (room === 'full') {
        conflated++
        this.floors.delete(socket)
        this.resync.add(socket)
        continue
      }
      let needsBook = this.resync.has(socket)
      const floor = this.floors.get(socket)
      if (floor !== undefined && !snapshot) {
        const standing = seqStanding(floor, seq)
        if (standing === 'old') continue
        if (standing === 'gap') needsBook = true
      }
      this.floors.delete(socket)
      if (snapshot || !needsBook) {
        this.resync.delete(socket)
        socket.writeFrame(frame)
        sent++
        continue
      }
      // the bus's book, framed once for every socket that needs it, if it already holds this update
      current ??= this.currentBook(seq)
      if (!current) continue
      this.resync.delete(socket)
      if (current.seq > seq) this.floors.set(socket, current.seq)
      socket.writeFrame(current.frame)
      sent++
    }
    this.backpressure.count(sent, conflated)
  }

  private currentBook(seq: number): { frame: Buffer; seq: number } | null {
    const [message] = this.bus.snapshot(this.topic)
    const held = message?.header.seq
    if (!message || held === undefined || held < seq) return null
    return { frame: encodeTextFrame(message.frame), seq: held }
  }
}
