import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

export interface RedisClusterChild {
  /** redis-cluster://host:port,... as REDIS_URL takes it */
  url: string
  /** kills one node (SIGKILL), as a lost master */
  killNode(index: number): Promise<void>
  stop(): Promise<void>
}

/** Three throwaway cluster nodes on free ports with every slot assigned, for the sharded bus. */
export async function startRedisCluster(nodeCount = 3): Promise<RedisClusterChild> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'))
  const ports: number[] = []
  const children: ChildProcess[] = []
  for (let i = 0; i < nodeCount; i++) {
    const port = await freePort()
    ports.push(port)
    children.push(
      spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
        ],
        { stdio: 'ignore' },
      ),
    )
  }
  const stop = async (): Promise<void> => {
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise<void>((resolve) => {
              child.once('exit', () => resolve())
              child.kill('SIGKILL')
            }),
      ),
    )
    await rm(dir, { recursive: true, force: true })
  }
  for (const port of ports) {
    const deadline = Date.now() + 5000
    while (!(await answers(port))) {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`cluster node did not start on ${port}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const nodes = ports.map((port) => `127.0.0.1:${port}`)
  const created = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'],
    {
      encoding: 'utf8',
    },
  )
  if (created.status !== 0) {
    await stop()
    throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`)
  }
  const probe = new Redis({ port: ports[0], host: '127.0.0.1' })
  const deadline = Date.now() + 10_000
  while (!String(await probe.cluster('INFO')).includes('cluster_state:ok')) {
    if (Date.now() > deadline) {
      probe.disconnect()
      await stop()
      throw new Error('the cluster did not reach cluster_state:ok')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  probe.disconnect()
  const killNode = async (index: number): Promise<void> => {
    const child = children[index]
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGKILL')
    await gone
  }
  return { url: `redis-cluster://${nodes.join(',')}`, killNode, stop }
}
