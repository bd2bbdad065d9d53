/**
 * The bench's own Redis: a throwaway redis-server (or a three-node cluster) on free ports, pinned to
 * the load generator's core, so the Redis systems' broker never takes CPU from the server under
 * test, and its counters (SUBSCRIBE calls) are the run's alone.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import { freePort, spawnPinned, type PinnedProcess } from './child-process'

export interface RunningRedis {
  /** As REDIS_URL takes it: redis://host:port, or redis-cluster://host:port,... */
  url: string
  /** Plain redis:// URLs of every node, for probes. */
  nodes: string[]
  pinned: boolean
  stop(): Promise<void>
}

async function answers(port: number): Promise<boolean> {
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null })
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

async function waitUntilAnswering(port: number, node: PinnedProcess): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await answers(port))) {
    if (node.exited || Date.now() > deadline)
      throw new Error(`redis-server did not start on ${port}: ${node.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const BASE_ARGS = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']

async function stopAll(nodes: PinnedProcess[], dir?: string): Promise<void> {
  await Promise.all(nodes.map((node) => node.stop()))
  if (dir) await rm(dir, { recursive: true, force: true })
}

/** One redis-server on a free port, pinned to `cpus`. */
export async function startRedis(cpus: string | undefined): Promise<RunningRedis> {
  const port = await freePort()
  const node = spawnPinned('redis-server', ['--port', String(port), ...BASE_ARGS], { cpus })
  try {
    await waitUntilAnswering(port, node)
  } catch (error) {
    await node.stop()
    throw error
  }
  const url = `redis://127.0.0.1:${port}`
  return { url, nodes: [url], pinned: node.pinned, stop: () => stopAll([node]) }
}

/** Three cluster nodes with every slot assigned, pinned to `cpus`, for the sharded bus. */
export async function startRedisCluster(cpus: string | undefined, nodeCount = 3): Promise<RunningRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'loadtests-redis-cluster-'))
  const nodes: PinnedProcess[] = []
  try {
    const ports: number[] = []
    for (let i = 0; i < nodeCount; i++) {
      const port = await freePort()
      ports.push(port)
      const config = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir]
      nodes.push(spawnPinned('redis-server', ['--port', String(port), ...BASE_ARGS, ...config], { cpus }))
    }
    for (let i = 0; i < nodeCount; i++) await waitUntilAnswering(ports[i]!, nodes[i]!)
    const addresses = ports.map((port) => `127.0.0.1:${port}`)
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8' },
    )
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`)
    const probe = new Redis({ port: ports[0], host: '127.0.0.1' })
    try {
      const deadline = Date.now() + 15_000
      while (!String(await probe.cluster('INFO')).includes('cluster_state:ok')) {
        if (Date.now() > deadline) throw new Error('the cluster did not reach cluster_state:ok')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } finally {
      probe.disconnect()
    }
    return {
      url: `redis-cluster://${addresses.join(',')}`,
      nodes: addresses.map((address) => `redis://${address}`),
      pinned: nodes.every((node) => node.pinned),
      stop: () => stopAll(nodes, dir),
    }
  } catch (error) {
    await stopAll(nodes, dir)
    throw error
  }
}
