import { connect, createServer, type Server, type Socket } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { EPHEMERAL_START, freePort, freePortWithCompanion } from '../../scripts/free-port.mjs'

// A port handed out is outside the range the kernel takes outgoing connections' ports from, so the
// thousands of client sockets a tier opens beside a starting program cannot take it from that program.

const servers: Server[] = []
const sockets: Socket[] = []

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) server.close()
})

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer((socket) => socket.destroy())
    servers.push(server)
    server.once('error', reject).listen(port, '127.0.0.1', () => resolve(server))
  })

it('hands out ports that can be listened on and that outgoing connections never take', async () => {
  const server = await listen(0)
  const port = (server.address() as { port: number }).port
  // the ports client sockets get: the range's start as read is where they really begin
  const clients = await Promise.all(
    Array.from({ length: 50 }, () => {
      const socket = connect(port, '127.0.0.1')
      sockets.push(socket)
      return new Promise<number>((resolve) => socket.once('connect', () => resolve(socket.localPort!)))
    }),
  )
  expect(Math.min(...clients)).toBeGreaterThanOrEqual(EPHEMERAL_START)

  const handed = await Promise.all(Array.from({ length: 20 }, () => freePort()))
  for (const port of handed) expect(port).toBeLessThan(EPHEMERAL_START)
  await Promise.all(handed.filter((port, index) => handed.indexOf(port) === index).map(listen))
})

it('keeps a companion port (a Redis Cluster bus at +10000) below the range too', async () => {
  const offset = 10_000
  for (let picked = 0; picked < 20; picked++) {
    const port = await freePortWithCompanion(offset)
    expect(port + offset).toBeLessThan(EPHEMERAL_START)
    await listen(port)
    await listen(port + offset)
  }
})
