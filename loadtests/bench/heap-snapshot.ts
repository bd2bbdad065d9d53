/**
 * Heap snapshots of a socket system's server: one before any client, one once N sockets of the
 * default scenario have had their frames for a while, opened by the native generator as the bench
 * opens them. The server runs with --heapsnapshot-signal=SIGWINCH (the gateway's close-with-grace
 * takes SIGUSR2 as a shutdown); each snapshot is written to --dir. The fleet opens whole or the
 * script stops; sockets still without a frame are reported. Group them with bench/heap-groups.ts.
 *
 *   tsx bench/heap-snapshot.ts --clients 10000 --system "gateway (memory bus)" --dir /tmp/snaps
 *   tsx bench/heap-groups.ts --per 10000 /tmp/snaps/LOADED.heapsnapshot /tmp/snaps/BASELINE.heapsnapshot
 */
import os from 'node:os'
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { pinSelf } from './child-process'
import { NativeClientFleet } from './native-client'
import { defaultScenario } from './scenario'
import { socketSystems } from './socket-systems'
import { sleep } from './windows'

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    system: { type: 'string', default: 'gateway (memory bus)' },
    dir: { type: 'string', default: '/tmp/memsnap' },
  },
})
const dir = path.resolve(values.dir)
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGWINCH --diagnostic-dir=${dir}`

/** A snapshot is written whole once its JSON's last brace is on disk. */
function endsWithBrace(file: string, size: number): boolean {
  const fd = openSync(file, 'r')
  try {
    const tail = Buffer.alloc(Math.min(16, size))
    readSync(fd, tail, 0, tail.length, size - tail.length)
    return tail.toString().trimEnd().endsWith('}')
  } finally {
    closeSync(fd)
  }
}

async function snapshot(pid: number): Promise<string> {
  const before = new Set(readdirSync(dir))
  process.kill(pid, 'SIGWINCH')
  let file: string | undefined
  let size = -1
  let stableSince = Date.now()
  for (;;) {
    await sleep(500)
    file ??= readdirSync(dir).find((name) => !before.has(name) && name.includes(`.${pid}.`))
    if (!file) continue
    const now = statSync(path.join(dir, file)).size
    if (now !== size || now === 0) {
      size = now
      stableSince = Date.now()
    } else if (Date.now() - stableSince > 3000 && endsWithBrace(path.join(dir, file), now))
      return path.join(dir, file)
  }
}

const serverCpus = os.availableParallelism() > 1 && pinSelf('0') ? '1' : undefined
const system = socketSystems.find((candidate) => candidate.name === values.system)
if (!system) throw new Error(`no socket system named ${values.system}`)
const running = await system.start({
  runId: `snap-${randomUUID().slice(0, 8)}`,
  serverCpus,
  scenario: defaultScenario,
  redisUrl: '',
  redisClusterUrl: () => Promise.reject(new Error('no cluster')),
})
const fleet = new NativeClientFleet({
  url: running.url,
  protocol: system.protocol,
  clients: Number(values.clients),
  scenario: defaultScenario,
  handshakeTimeoutMs: 300_000,
})
try {
  await sleep(300)
  await running.setRateScale(0.1)
  await running.startTicks()
  console.log(`baseline: ${await snapshot(running.pid)}`)
  await fleet.connect()
  const first = await fleet.waitUntilAllReceived(30_000)
  if (first.missing > 0) console.error(`${first.missing} missing; ${await running.diagnose?.()}`)
  await sleep(Number(values.seconds) * 1000)
  console.log(`loaded (${fleet.openSockets} sockets): ${await snapshot(running.pid)}`)
} finally {
  fleet.close()
  await running.stop()
}
