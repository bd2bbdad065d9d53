import { spawnSync, type ChildProcess } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { Redis } from 'ioredis'
import { freePort, freePortWithCompanion } from '../../../scripts/free-port.mjs'
import { keepOutputTail } from './output-tail'
import { ownTempDir, spawnOwned, stopOwned } from './owned-processes'

// Throwaway redis-server children on free ports, a single node or a cluster: the one launcher of the
// gateway's tests (which stop and restart Redis under a running gateway) and of the bench (which
// pins its broker to the load generator's core). Never the machine's shared Redis.

export interface RedisLaunchOptions {
  /** A command the server runs under, such as `taskset -c 1`, to pin it; none by default. */
  runUnder?: string[]
}

export interface RedisChild {
  url: string
  port: number
  /** Whether it runs under `runUnder`. */
  pinned: boolean
  /** SIGKILL, like a crash; resolves once the process is gone */
  kill(): Promise<void>
  /** starts again on the same port, empty */
  start(): Promise<void>
}

export interface RedisClusterChild {
  /** redis-cluster://host:port,... as REDIS_URL takes it */
  url: string
  /** a plain redis:// URL of every node, for probes */
  nodes: string[]
  pinned: boolean
  /** kills one node (SIGKILL), as a lost master */
  killNode(index: number): Promise<void>
  /** the port of the node that serves `key`'s slot as master now */
  masterPortOf(key: string): Promise<number>
  /** kills the node on `port` (SIGKILL) */
  killPort(port: number): Promise<void>
  /**
   * starts the killed node on `port` again, empty but with its cluster config: it rejoins as the node
   * it was (a master still owning its slots if no replica took them over)
   */
  restartPort(port: number): Promise<void>
  stop(): Promise<void>
}

export interface RedisClusterOptions extends RedisLaunchOptions {
  /** masters (three by default) */
  nodeCount?: number
  /** replicas per master, each a node of its own, which take over a lost master's slots */
  replicasPerMaster?: number
  /** how long a node may be unreachable before the cluster fails it over (Redis's default: 15 s) */
  nodeTimeoutMs?: number
}

const BASE_ARGS = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
const START_TIMEOUT_MS = 10_000

/** One redis-server process, with the tail of its output kept for the error when it does not start. */
interface RedisProcess {
  child: ChildProcess
  output(): string
}

function launch(port: number, args: string[], options: RedisLaunchOptions): RedisProcess {
  const [command = 'redis-server', ...prefix] = [...(options.runUnder ?? []), 'redis-server']
  const child = spawnOwned(command, [...prefix, '--port', String(port), ...BASE_ARGS, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return { child, output: keepOutputTail(child) }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null
}

async function kill(child: ChildProcess | null): Promise<void> {
  if (child) await stopOwned(child, { signal: 'SIGKILL' })
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

async function waitUntilAnswering(port: number, node: RedisProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (!(await answers(port))) {
    if (!isRunning(node.child) || Date.now() > deadline)
      throw new Error(`redis-server did not start on ${port}: ${node.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export async function startRedisChild(options: RedisLaunchOptions = {}): Promise<RedisChild> {
  const port = await freePort()
  let child: ChildProcess | null = null
  const start = async (): Promise<void> => {
    const node = launch(port, [], options)
    child = node.child
    try {
      await waitUntilAnswering(port, node)
    } catch (error) {
      await kill(node.child)
      throw error
    }
  }
  const stop = async (): Promise<void> => {
    const running = child
    child = null
    await kill(running)
  }
  await start()
  const pinned = (options.runUnder?.length ?? 0) > 0
  return { url: `redis://127.0.0.1:${port}`, port, pinned, kill: stop, start }
}

/** where a cluster node listens for the other nodes, past its client port */
const CLUSTER_BUS_OFFSET = 10_000

/** Throwaway cluster nodes (three masters by default) with every slot assigned, for the sharded bus. */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterChild> {
  const masters = options.nodeCount ?? 3
  const replicas = options.replicasPerMaster ?? 0
  const dir = ownTempDir('redis-cluster-')
  const nodes: RedisProcess[] = []
  const configs: string[][] = []
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => kill(node.child)))
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const ports: number[] = []
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const port = await freePortWithCompanion(CLUSTER_BUS_OFFSET)
      ports.push(port)
      const config = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir]
      // a replica's first sync starts at once rather than after Redis's default 5 s wait for others
      if (replicas > 0) config.push('--repl-diskless-sync-delay', '0')
      if (options.nodeTimeoutMs) config.push('--cluster-node-timeout', String(options.nodeTimeoutMs))
      configs.push(config)
      nodes.push(launch(port, config, options))
    }
    for (const [index, port] of ports.entries()) await waitUntilAnswering(port, nodes[index]!)
    const addresses = ports.map((port) => `127.0.0.1:${port}`)
    await assignSlots(addresses, ports[0]!, replicas)
    const killNode = (index: number): Promise<void> => kill(nodes[index]?.child ?? null)
    return {
      url: `redis-cluster://${addresses.join(',')}`,
      nodes: addresses.map((address) => `redis://${address}`),
      pinned: (options.runUnder?.length ?? 0) > 0,
      killNode,
      masterPortOf: (key) =>
        masterPortOf(
          key,
          ports.filter((_, index) => isRunning(nodes[index]!.child)),
        ),
      killPort: (port) => killNode(ports.indexOf(port)),
      async restartPort(port) {
        const index = ports.indexOf(port)
        if (index < 0 || isRunning(nodes[index]!.child)) throw new Error(`no killed node on ${port}`)
        nodes[index] = launch(port, configs[index]!, options)
        await waitUntilAnswering(port, nodes[index]!)
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Asks a node that still runs which node serves `key`'s slot as master. */
async function masterPortOf(key: string, livePorts: number[]): Promise<number> {
  for (const port of livePorts) {
    const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true })
    try {
      await node.connect()
      const slot = Number(await node.cluster('KEYSLOT', key))
      const ranges = await node.cluster('SLOTS')
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to)
      // the first node listed for a range is its master
      if (owner?.[2]) return owner[2][1]
    } finally {
      node.disconnect()
    }
  }
  throw new Error(`no running node knows the master of ${key}`)
}

/**
 * Makes the nodes one cluster (the first of each group a master, the rest its replicas) and waits
 * until it says it is whole, with every replica attached and holding its master's data: a replica
 * that has not finished its first sync refuses to take over (its data counts as too old), so a
 * master lost before then would stay lost.
 */
async function assignSlots(addresses: string[], firstPort: number, replicas: number): Promise<void> {
  const created = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes'],
    { encoding: 'utf8' },
  )
  if (created.status !== 0)
    throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`)
  const probe = new Redis({ port: firstPort, host: '127.0.0.1' })
  try {
    // generous: only a cluster that never becomes whole reaches it
    const deadline = Date.now() + 60_000
    const whole = async (): Promise<boolean> => {
      if (!String(await probe.cluster('INFO')).includes('cluster_state:ok')) return false
      const lines = String(await probe.cluster('NODES'))
        .trim()
        .split('\n')
      const attached = lines.filter((line) => / slave [0-9a-f]{40} /.test(line)).length
      if (attached !== (addresses.length / (1 + replicas)) * replicas) return false
      for (const address of addresses) if (!(await replicaInSync(address))) return false
      return true
    }
    while (!(await whole())) {
      if (Date.now() > deadline) throw new Error('the cluster did not reach cluster_state:ok')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally {
    probe.disconnect()
  }
}

/** False for a replica whose link to its master is not up yet (its first sync still running). */
async function replicaInSync(address: string): Promise<boolean> {
  const node = new Redis(Number(address.split(':')[1]), '127.0.0.1', { lazyConnect: true })
  try {
    await node.connect()
    const info = String(await node.info('replication'))
    return !info.includes('role:slave') || info.includes('master_link_status:up')
  } finally {
    node.disconnect()
  }
}
