import { WebSocket, type ClientOptions } from 'ws'
import { WAIT_BOUND_MS } from '../support/wait-bound'

// A test browser: collects every frame, parsed, and waits for the ones a test expects.

export interface Frame {
  type: string
  symbol?: string
  code?: number
  msg?: string
  ts?: number
  userId?: string
  data?: Record<string, unknown>
  interval?: string
}

export interface TestClient {
  ws: WebSocket
  frames: Frame[]
  /** when each frame arrived (Date.now()), index for index with `frames` */
  arrivals: number[]
  send(frame: object | string): void
  /** resolves with the first frame (already received or future) matching `match` */
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>
  closed: Promise<{ code: number; reason: string }>
  close(): Promise<void>
}

export function connectClient(url: string, options: ClientOptions = {}): Promise<TestClient> {
  const ws = new WebSocket(url, { perMessageDeflate: false, ...options })
  const frames: Frame[] = []
  const arrivals: number[] = []
  const waiters: Array<{ match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }> = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame
    frames.push(frame)
    arrivals.push(Date.now())
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!
      if (waiter.match(frame)) {
        waiters.splice(i, 1)
        waiter.resolve(frame)
      }
    }
  })
  const client: TestClient = {
    ws,
    frames,
    arrivals,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next(match, timeoutMs = WAIT_BOUND_MS) {
      const found = frames.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching frame in time')), timeoutMs)
        waiters.push({
          match,
          resolve: (frame) => {
            clearTimeout(timer)
            resolve(frame)
          },
        })
      })
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return
      ws.terminate()
      await closed
    },
  }
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client))
    ws.once('error', reject)
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused with ${response.statusCode}`)),
    )
  })
}
