import { connect, type AddressInfo, type Socket } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { useTestStack } from './helpers'

// Clients that send their headers a byte at a time are cut off; everyone else is served meanwhile.

// long enough that a first (cached) answer comes before it even beside two busy loops
const HEADERS_TIMEOUT_MS = 3000

let port = 0

// the loop below asks as fast as it is answered, so the address budget is lifted out of its way
const stack = useTestStack({ REDIS_URL: '', HEADERS_TIMEOUT_MS, RATE_LIMIT_PER_MINUTE: 1_000_000 })
beforeAll(async () => {
  await stack.gateway.app.listen({ port: 0, host: '127.0.0.1' })
  port = (stack.gateway.app.server.address() as AddressInfo).port
})

/** Opens a connection that never finishes its headers, trickling one header byte every 100 ms. */
function slowClient(): { socket: Socket; closed: Promise<{ afterMs: number; received: string }> } {
  const socket = connect(port, '127.0.0.1')
  const opened = Date.now()
  let received = ''
  socket.on('data', (chunk) => (received += chunk.toString()))
  socket.on('error', () => undefined)
  socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ')
  const drip = setInterval(() => socket.writable && socket.write('a'), 100)
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.once('close', () => {
      clearInterval(drip)
      resolve({ afterMs: Date.now() - opened, received })
    }),
  )
  return { socket, closed }
}

describe('slow clients', () => {
  it('drops clients that do not finish their headers in time, without slowing anyone else', async () => {
    // the first answer reads the upstream; a starved machine took longer than the timeout over it
    const first = await fetch(`http://127.0.0.1:${port}${CALLS.getCoinList.path}`)
    expect(first.status).toBe(200)
    await first.arrayBuffer()
    const slow = Array.from({ length: 30 }, () => slowClient())
    try {
      // told apart by the order of events, not by how long each took, so a busy machine cannot fail it
      let dropped = 0
      for (const client of slow) void client.closed.then(() => dropped++)
      let answeredBeforeAnyDrop = 0
      while (dropped < slow.length) {
        const response = await fetch(`http://127.0.0.1:${port}${CALLS.getCoinList.path}`)
        expect(response.status).toBe(200)
        await response.arrayBuffer()
        if (dropped === 0) answeredBeforeAnyDrop++
      }
      // a server stuck behind the slow clients could answer no one until their timeout cut them off
      expect(answeredBeforeAnyDrop).toBeGreaterThan(0)
      // they trickle forever, so each close is the server cutting them off, with no answer
      const results = await Promise.all(slow.map((client) => client.closed))
      for (const { afterMs, received } of results) {
        expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50)
        expect(received).not.toContain('200 OK')
      }
    } finally {
      for (const client of slow) client.socket.destroy()
    }
  })
})
