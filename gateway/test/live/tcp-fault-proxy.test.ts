import net from 'node:net'
import { once } from 'node:events'
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { Redis, type RedisOptions } from 'ioredis'
import { waitFor } from './helpers'
import { startFaultProxy, type FaultProxy } from './tcp-fault-proxy'

const REDIS_HOST = '127.0.0.1'
const REDIS_PORT = 6379
const keyPrefix = `loadtests:fault-proxy:${randomUUID()}:`

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function proxyTo(port: number, host = '127.0.0.1'): Promise<FaultProxy> {
  const proxy = await startFaultProxy({ targetHost: host, targetPort: port })
  cleanups.push(() => proxy.close())
  return proxy
}

async function startEchoServer(): Promise<number> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    socket.pipe(socket)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy()
    return new Promise((done) => server.close(done))
  })
  return (server.address() as net.AddressInfo).port
}

async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port })
  await once(socket, 'connect')
  cleanups.push(() => socket.destroy())
  return socket
}

/** Resolves with everything received once `length` bytes have arrived. */
function receive(socket: net.Socket, length: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let total = 0
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk)
      total += chunk.length
      if (total >= length) {
        socket.off('data', onData)
        resolve(Buffer.concat(chunks))
      }
    }
    socket.on('data', onData)
  })
}

function redisVia(proxy: FaultProxy, extra: RedisOptions = {}): Redis {
  const redis = new Redis({
    host: '127.0.0.1',
    port: proxy.port,
    keyPrefix,
    maxRetriesPerRequest: 1,
    retryStrategy: () => 50,
    ...extra,
  })
  cleanups.push(() => redis.disconnect())
  return redis
}

/** Whether `promise` has settled by the time the promises already settled have run their callbacks. */
const settledNow = async (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false
  promise.then(
    () => (settled = true),
    () => (settled = true),
  )
  await new Promise((done) => setImmediate(done))
  return settled
}

describe('tcp fault proxy over raw sockets', () => {
  it('forwards bytes unchanged in both directions', async () => {
    const proxy = await proxyTo(await startEchoServer())
    const socket = await connect(proxy.port)
    const payload = Buffer.alloc(1_000_000)
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 31) & 0xff
    const echoed = receive(socket, payload.length)
    socket.write(payload)
    expect((await echoed).equals(payload)).toBe(true)
    expect(proxy.acceptedConnections).toBe(1)
  })

  it('blackhole drops bytes but keeps the connection open, and traffic flows again when lifted', async () => {
    const proxy = await proxyTo(await startEchoServer())
    const socket = await connect(proxy.port)
    proxy.blackhole(true)
    const received: Buffer[] = []
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.write('lost')
    await waitFor(() => proxy.droppedBytes === 4, 'the blackhole to drop the bytes')
    expect(received).toHaveLength(0)
    expect(socket.destroyed).toBe(false)
    expect(proxy.openConnections).toBe(1)

    proxy.blackhole(false)
    const echoed = receive(socket, 4)
    socket.write('back')
    expect((await echoed).toString()).toBe('back')
  })

  it('pause holds bytes and delivers them in order when resumed', async () => {
    const proxy = await proxyTo(await startEchoServer())
    const socket = await connect(proxy.port)
    proxy.pause(true)
    const echoed = receive(socket, 6)
    socket.write('ab')
    socket.write('cd')
    socket.write('ef')
    await waitFor(() => proxy.heldBytes === 6, 'the proxy to hold the bytes')
    expect(await settledNow(echoed)).toBe(false)
    proxy.pause(false)
    expect((await echoed).toString()).toBe('abcdef')
  })

  it('resetAll sends a TCP reset to the client', async () => {
    const proxy = await proxyTo(await startEchoServer())
    const socket = await connect(proxy.port)
    const [error] = (await Promise.all([once(socket, 'error'), Promise.resolve(proxy.resetAll())]))[0] as [
      NodeJS.ErrnoException,
    ]
    expect(error.code).toBe('ECONNRESET')
    expect(proxy.openConnections).toBe(0)
  })

  it('close stops accepting new connections', async () => {
    const proxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: await startEchoServer() })
    await proxy.close()
    const socket = net.connect({ host: '127.0.0.1', port: proxy.port })
    const [error] = (await once(socket, 'error')) as [NodeJS.ErrnoException]
    expect(error.code).toBe('ECONNREFUSED')
  })
})

describe('tcp fault proxy in front of the real Redis', () => {
  it('passes commands through', async () => {
    const redis = redisVia(await proxyTo(REDIS_PORT, REDIS_HOST))
    cleanups.push(() => new Redis({ host: REDIS_HOST, port: REDIS_PORT, keyPrefix }).del('k').catch(() => 0))
    await redis.set('k', 'v', 'PX', 10_000)
    expect(await redis.get('k')).toBe('v')
  })

  it('blackhole makes a command time out while the connection stays up', async () => {
    const proxy = await proxyTo(REDIS_PORT, REDIS_HOST)
    const redis = redisVia(proxy, { commandTimeout: 300 })
    expect(await redis.ping()).toBe('PONG')
    proxy.blackhole(true)
    await expect(redis.ping()).rejects.toThrow(/timed out/i)
    expect(proxy.openConnections).toBe(1)
  })

  it('resetAll makes ioredis reconnect through a new connection and work again', async () => {
    const proxy = await proxyTo(REDIS_PORT, REDIS_HOST)
    const redis = redisVia(proxy)
    expect(await redis.ping()).toBe('PONG')
    const errors: NodeJS.ErrnoException[] = []
    redis.on('error', (error: NodeJS.ErrnoException) => errors.push(error))
    const readyAgain = new Promise((done) => redis.once('reconnecting', () => redis.once('ready', done)))
    proxy.resetAll()
    await readyAgain
    expect(errors.map((error) => error.code)).toContain('ECONNRESET')
    expect(await redis.ping()).toBe('PONG')
    expect(proxy.acceptedConnections).toBe(2)
  })

  it('pause holds a Redis reply until resumed', async () => {
    const proxy = await proxyTo(REDIS_PORT, REDIS_HOST)
    const redis = redisVia(proxy)
    expect(await redis.ping()).toBe('PONG')
    proxy.pause(true)
    const reply = redis.echo('held')
    // the command is held on its way to Redis, so no reply can come
    await waitFor(() => proxy.heldBytes > 0, 'the proxy to hold the command')
    expect(await settledNow(reply)).toBe(false)
    proxy.pause(false)
    expect(await reply).toBe('held')
  })

  it('latency delays a round trip by at least the configured amount each way', async () => {
    const proxy = await proxyTo(REDIS_PORT, REDIS_HOST)
    const redis = redisVia(proxy)
    expect(await redis.ping()).toBe('PONG')
    proxy.setLatency(100)
    const started = performance.now()
    await redis.ping()
    // Timers may fire up to a millisecond early; only the lower bound is a behaviour.
    expect(performance.now() - started).toBeGreaterThanOrEqual(195)
  })
})
