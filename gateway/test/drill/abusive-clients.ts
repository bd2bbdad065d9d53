import { WebSocket } from 'ws'

// Clients that misbehave through nginx, each from an address of its own on the loopback network (so
// nginx logs it and the gateway's per-address limits key it apart from the well-behaved clients).

const FLOOD_ADDRESS = '127.0.0.2'
const SLOW_ADDRESS = '127.0.0.3'

export interface Abuser {
  /** what happened to its sockets so far */
  counts: Record<string, number>
  stop(): void
}

/** One address opening sockets as fast as it may, keeping every one it gets: a socket flood. */
export function startSocketFlood(base: string, attemptsPerSecond = 20): Abuser {
  const counts: Record<string, number> = { held: 0, refused429: 0, otherRefusals: 0 }
  const sockets = new Set<WebSocket>()
  let stopped = false
  let index = 0
  const attempt = (): void => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/flood-${index++}`, {
      localAddress: FLOOD_ADDRESS,
      perMessageDeflate: false,
    })
    sockets.add(ws)
    ws.on('open', () => counts.held!++)
    ws.on('unexpected-response', (_request, response) => {
      if (response.statusCode === 429) counts.refused429!++
      else counts.otherRefusals!++
      response.resume()
      sockets.delete(ws)
    })
    ws.on('error', () => sockets.delete(ws))
    ws.on('close', () => sockets.delete(ws))
  }
  const timer = setInterval(() => {
    if (!stopped) attempt()
  }, 1000 / attemptsPerSecond)
  return {
    counts,
    stop() {
      stopped = true
      clearInterval(timer)
      for (const ws of sockets) ws.terminate()
    },
  }
}

/** How long a slow reader reads nothing: past two of the drill's ping intervals, so it is cut first. */
const UNREAD_MS = 12_000

/**
 * Readers that subscribe and then stop reading for a while (their socket paused: no frames, no
 * pongs). When one reads again it finds its socket cut, and opens a new one: slow consumers that keep
 * coming back. A paused socket cannot see its close, hence the pause ends.
 */
export function startSlowReaders(base: string, count = 6): Abuser {
  const counts: Record<string, number> = { opened: 0, cut: 0, survived: 0 }
  const sockets = new Set<WebSocket>()
  let stopped = false
  const open = (index: number): void => {
    if (stopped) return
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/slow-${index}`, {
      localAddress: SLOW_ADDRESS,
      perMessageDeflate: false,
    })
    sockets.add(ws)
    ws.on('open', () => {
      counts.opened!++
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }))
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt' }))
      ws.pause()
      setTimeout(() => {
        ws.resume()
        // still open after it read nothing that long: the gateway missed it
        setTimeout(() => {
          if (ws.readyState !== WebSocket.OPEN) return
          counts.survived!++
          ws.terminate()
        }, 1000)
      }, UNREAD_MS)
    })
    ws.on('error', () => {})
    ws.on('close', () => {
      sockets.delete(ws)
      if (stopped) return
      counts.cut!++
      setTimeout(() => open(index), 200)
    })
  }
  for (let i = 0; i < count; i++) open(i)
  return {
    counts,
    stop() {
      stopped = true
      for (const ws of sockets) ws.terminate()
    },
  }
}
