import { createServer, type AddressInfo } from 'node:net'

/** A port free at the time of asking, for servers and programs that take their port from outside. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Whether `port` can be listened on now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * A free port whose companion `port + offset` is free too, for a program that listens on both: a
 * Redis Cluster node takes its cluster bus at port + 10000, and failed to start when that was taken.
 */
export async function freePortWithCompanion(offset: number): Promise<number> {
  for (;;) {
    const port = await freePort()
    if (port + offset <= 65_535 && (await isFree(port + offset))) return port
  }
}
