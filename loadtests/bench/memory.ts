/**
 * Memory per socket on its own, without the full bench: each named system (the gateway and bare
 * `ws`, the floor, by default) with N sockets of the default scenario (6 subscriptions each) at a
 * low tick rate; the server's RSS and V8 heap before any client and once every socket has had its
 * frames for a while, divided by the sockets open. The bench's memory row measures the same
 * difference at half capacity after its ramp, so its figure can only be as low as this one or higher.
 *
 *   npm run memory -w loadtests -- --clients 10000
 *   npm run memory -w loadtests -- --clients 10000 --systems "gateway (memory bus)" --seconds 20
 */
import os from 'node:os'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { isMainModule, pinSelf } from './child-process'
import { LeanClientFleet } from './lean-client'
import { readRssBytes } from './proc-stats'
import { defaultScenario } from './scenario'
import { BARE_WS, GATEWAY, socketSystems } from './socket-systems'
import { sleep } from './windows'

export interface MemoryRow {
  system: string
  sockets: number
  rssBaselineMb: number
  rssPerSocketKb: number
  heapPerSocketKb: number | undefined
}

/** Half the gateway's held capacity in the last full run (RESULTS.md), where the bench reads memory. */
const RATE_SCALE = 0.1
/** Opening 10,000 sockets on a machine others share may take minutes; none is given up sooner. */
const CONNECT_DEADLINE_MS = 300_000

export async function measureMemory(
  systemName: string,
  clients: number,
  settleSeconds: number,
  serverCpus: string | undefined,
): Promise<MemoryRow> {
  const system = socketSystems.find((candidate) => candidate.name === systemName)
  if (!system) throw new Error(`no socket system named ${systemName}`)
  const scenario = defaultScenario
  const running = await system.start({
    runId: `memory-${randomUUID().slice(0, 8)}`,
    serverCpus,
    scenario,
    redisUrl: '',
    redisClusterUrl: () => Promise.reject(new Error('the memory probe runs no cluster')),
  })
  const fleet = new LeanClientFleet({
    url: running.url,
    protocol: system.protocol,
    clients,
    scenario,
    // memory, not connect rate, is measured here: a slow handshake on a busy machine is waited for
    handshakeTimeoutMs: CONNECT_DEADLINE_MS,
  })
  try {
    await sleep(300)
    const rssBaseline = readRssBytes(running.pid)!
    const heapBaseline = await running.heapUsedBytes?.()
    await running.setRateScale(RATE_SCALE)
    await running.startTicks()
    const connect = await fleet.connect(CONNECT_DEADLINE_MS)
    const first = await fleet.waitUntilAllReceived(30_000)
    if (connect.failed > 0 || first.missing > 0)
      throw new Error(`${connect.failed} sockets failed to open, ${first.missing} without a frame`)
    await sleep(settleSeconds * 1000)
    const rss = readRssBytes(running.pid)!
    const heap = await running.heapUsedBytes?.()
    const sockets = fleet.openSockets
    return {
      system: systemName,
      sockets,
      rssBaselineMb: rssBaseline / 2 ** 20,
      rssPerSocketKb: (rss - rssBaseline) / 1024 / sockets,
      heapPerSocketKb:
        heap === undefined || heapBaseline === undefined ? undefined : (heap - heapBaseline) / 1024 / sockets,
    }
  } finally {
    fleet.close()
    await running.stop()
  }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '10' },
      systems: { type: 'string', default: `${GATEWAY},${BARE_WS}` },
    },
  })
  // as in the bench: the clients and the feed on core 0, the server under test on core 1
  const serverCpus = os.availableParallelism() > 1 && pinSelf('0') ? '1' : undefined
  for (const name of values.systems.split(',')) {
    const row = await measureMemory(name.trim(), Number(values.clients), Number(values.seconds), serverCpus)
    const heap = row.heapPerSocketKb === undefined ? '-' : row.heapPerSocketKb.toFixed(2)
    console.log(
      `${row.system}: ${row.sockets} sockets, RSS ${row.rssPerSocketKb.toFixed(2)} KiB/socket (heap ${heap} KiB/socket) over a ${row.rssBaselineMb.toFixed(1)} MiB baseline`,
    )
  }
}
