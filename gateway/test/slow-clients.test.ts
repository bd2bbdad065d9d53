import { connect, type AddressInfo, type Socket } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { useTestStack } from './helpers'

// Clients that send their headers a byte at a time are cut off; everyone else is served meanwhile.

const HEADERS_TIMEOUT_MS = 500

let port = 0

const stack = useTestStack({ REDIS_URL: '', HEADERS_TIMEOUT_MS })
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
    const slow = Array.from({ length: 30 }, () => slowClient())
    try {
      const started = Date.now()
      const answers: number[] = []
      while (Date.now() - started < HEADERS_TIMEOUT_MS * 2) {
        const beganAt = Date.now()
        const response = await fetch(`http://127.0.0.1:${port}${CALLS.getCoinList.path}`)
        expect(response.status).toBe(200)
        await response.arrayBuffer()
        answers.push(Date.now() - beganAt)
      }
      // a server stuck behind the slow clients would make every answer wait for their timeout
      const sorted = [...answers].sort((a, b) => a - b)
      expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100)
      expect(sorted.at(-1)).toBeLessThan(HEADERS_TIMEOUT_MS * 2)
      const results = await Promise.all(slow.map((client) => client.closed))
      for (const { afterMs, received } of results) {
        expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 2000)
        expect(received).not.toContain('200 OK')
      }
    } finally {
      for (const client of slow) client.socket.destroy()
    }
  })
})
