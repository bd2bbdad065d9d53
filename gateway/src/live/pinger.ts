import type { ClientSocket } from './client-socket'
import { PING_TIMEOUT } from './socket-log'

// One timer for every socket, pinging one slice of them per tick so that ten thousand pings never
// stall a single event-loop turn; a socket that did not answer its previous ping is gone.

/** Pings go out in this many slices per interval. */
const PING_SLICES = 25

export class Pinger {
  private readonly slices = Array.from({ length: PING_SLICES }, () => new Set<ClientSocket>())
  private tick = 0
  private readonly timer: NodeJS.Timeout

  constructor(intervalMs: number) {
    this.timer = setInterval(() => this.pingSlice(), intervalMs / PING_SLICES)
    this.timer.unref()
  }

  /** Pings `client` from now on, in the slice its id falls in. */
  add(client: ClientSocket, socketId: number): void {
    this.slices[socketId % PING_SLICES]!.add(client)
  }

  /** Stops pinging `client`; a method, not a closure per socket, to keep nothing more per socket. */
  remove(client: ClientSocket, socketId: number): void {
    this.slices[socketId % PING_SLICES]!.delete(client)
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private pingSlice(): void {
    const slice = this.slices[this.tick++ % PING_SLICES]!
    for (const client of slice) {
      if (!client.alive) {
        client.log?.closing(1006, PING_TIMEOUT)
        client.ws.terminate()
        continue
      }
      client.alive = false
      client.ws.ping()
    }
  }
}
