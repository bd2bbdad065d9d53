import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { Redis } from 'ioredis'

// A throwaway redis-server child on its own port, for tests that stop and restart Redis.

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export interface RedisChild {
  url: string
  port: number
  /** SIGKILL, like a crash; resolves once the process is gone */
  kill(): Promise<void>
  /** starts again on the same port, empty */
  start(): Promise<void>
}

async function answers(port: number): Promise<boolean> {
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  })
  probe.on('error', () => {})
  try {
    await probe.connect()
    return (await probe.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    probe.disconnect()
  }
}

export async function startRedisChild(): Promise<RedisChild> {
  const port = await freePort()
  let child: ChildProcess | null = null
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    )
    const deadline = Date.now() + 5000
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const kill = async (): Promise<void> => {
    const running = child
    child = null
    if (!running || running.exitCode !== null) return
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
    running.kill('SIGKILL')
    await exited
  }
  await start()
  return { url: `redis://127.0.0.1:${port}`, port, kill, start }
}
