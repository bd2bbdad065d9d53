import net from 'node:net'

export interface FaultProxyOptions {
  targetHost: string
  targetPort: number
  /** 0 or omitted: any free port */
  listenPort?: number
  listenHost?: string
}

export interface FaultProxy {
  readonly port: number
  /** Connections accepted since start, including ones already closed. */
  readonly acceptedConnections: number
  readonly openConnections: number
  /** Bytes the blackhole has dropped, both directions: a test waits on them instead of a time. */
  readonly droppedBytes: number
  /** Bytes received and not yet passed on (paused or delayed), both directions. */
  readonly heldBytes: number
  /** One-way delay added to every chunk in both directions. */
  setLatency(ms: number): void
  /** Destroys every open connection with a TCP RST on both sides. */
  resetAll(): void
  /** Keeps and accepts connections but silently drops every byte in both directions. */
  blackhole(on: boolean): void
  /** Stops forwarding and buffers; turning it off delivers the buffered bytes in order. */
  pause(on: boolean): void
  close(): Promise<void>
}

interface PendingChunk {
  chunk: Buffer
  due: number
}

/** One direction of one proxied connection: delays, holds or drops chunks, keeping their order. */
class Lane {
  private readonly queue: PendingChunk[] = []
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly from: net.Socket,
    private readonly to: net.Socket,
    private readonly faults: FaultState,
  ) {
    from.on('data', (chunk: Buffer) => this.accept(chunk))
  }

  /** bytes received and not yet written on */
  get heldBytes(): number {
    return this.queue.reduce((sum, { chunk }) => sum + chunk.length, 0)
  }

  private accept(chunk: Buffer): void {
    if (this.faults.blackholed) {
      this.faults.droppedBytes += chunk.length
      return
    }
    const last = this.queue.at(-1)
    // A later chunk never overtakes an earlier one, even if latency was lowered in between.
    const due = Math.max(Date.now() + this.faults.latencyMs, last?.due ?? 0)
    this.queue.push({ chunk, due })
    this.pump()
  }

  pump(): void {
    if (this.timer || this.faults.paused || this.to.destroyed) return
    const now = Date.now()
    while (this.queue.length > 0) {
      const head = this.queue[0]!
      if (head.due > now) {
        this.timer = setTimeout(() => {
          this.timer = undefined
          this.pump()
        }, head.due - now)
        return
      }
      this.queue.shift()
      if (!this.to.write(head.chunk)) {
        // Backpressure: stop reading the sender until the receiver drains.
        this.from.pause()
        this.to.once('drain', () => this.from.resume())
      }
    }
  }

  dispose(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.queue.length = 0
  }
}

interface FaultState {
  latencyMs: number
  blackholed: boolean
  paused: boolean
  droppedBytes: number
}

interface ProxiedConnection {
  client: net.Socket
  upstream: net.Socket
  lanes: Lane[]
}

export function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const faults: FaultState = { latencyMs: 0, blackholed: false, paused: false, droppedBytes: 0 }
  const connections = new Set<ProxiedConnection>()
  let accepted = 0

  const server = net.createServer((client) => {
    accepted += 1
    client.setNoDelay(true)
    const upstream = net.connect({ host: options.targetHost, port: options.targetPort })
    upstream.setNoDelay(true)
    const connection: ProxiedConnection = { client, upstream, lanes: [] }
    connection.lanes.push(new Lane(client, upstream, faults), new Lane(upstream, client, faults))
    connections.add(connection)

    const teardown = (): void => {
      if (!connections.delete(connection)) return
      for (const lane of connection.lanes) lane.dispose()
      client.destroy()
      upstream.destroy()
    }
    // A FIN from either side is passed on as a close, so the peer sees what a real disconnect looks like.
    client.on('close', teardown)
    upstream.on('close', teardown)
    client.on('error', teardown)
    upstream.on('error', teardown)
  })

  const resetAll = (): void => {
    for (const connection of [...connections]) {
      connections.delete(connection)
      for (const lane of connection.lanes) lane.dispose()
      connection.client.resetAndDestroy()
      connection.upstream.resetAndDestroy()
    }
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.listenPort ?? 0, options.listenHost ?? '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address() as net.AddressInfo
      resolve({
        port: address.port,
        get acceptedConnections() {
          return accepted
        },
        get openConnections() {
          return connections.size
        },
        get droppedBytes() {
          return faults.droppedBytes
        },
        get heldBytes() {
          let held = 0
          for (const connection of connections) for (const lane of connection.lanes) held += lane.heldBytes
          return held
        },
        setLatency(ms) {
          faults.latencyMs = Math.max(0, ms)
        },
        resetAll,
        blackhole(on) {
          faults.blackholed = on
        },
        pause(on) {
          faults.paused = on
          if (!on) for (const connection of connections) for (const lane of connection.lanes) lane.pump()
        },
        close() {
          resetAll()
          return new Promise<void>((done) => server.close(() => done()))
        },
      })
    })
  })
}
