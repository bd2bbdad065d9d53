/**
 * `npx tsx bench/generator-cost.ts [--system "bare ws pre-framed"] [--clients 2000] [--scale 0.3] [--seconds 4] [--rounds 2] [--coalesce 1000,0] [--no-node]`
 *
 * What each load generator costs per frame it counts: the native generator (once per pause given
 * to --coalesce, in µs; see NATIVE_COALESCE_MICROS) and the Node fleet in turn (rounds interleaved), on one running system at one rate, pinned as the bench pins them
 * (generators on core 0, the server on core 1). Prints the frames each read over the same span,
 * its CPU (the C process's; the whole Node process for the fleet) and CPU µs per frame read.
 */
import { parseArgs } from 'node:util'
import { pinSelf } from './child-process'
import { LeanClientFleet } from './lean-client'
import { NATIVE_COALESCE_MICROS, NativeClientFleet } from './native-client'
import { defaultScenario } from './scenario'
import { socketSystems } from './socket-systems'
import { sleep } from './windows'

const { values } = parseArgs({
  options: {
    system: { type: 'string', default: 'bare ws pre-framed' },
    clients: { type: 'string', default: '2000' },
    scale: { type: 'string', default: '0.3' },
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    coalesce: { type: 'string', default: String(NATIVE_COALESCE_MICROS) },
    'no-node': { type: 'boolean', default: false },
  },
})
const system = socketSystems.find((candidate) => candidate.name === values.system)
if (!system) throw new Error(`no socket system named "${values.system}"`)
const clients = Number(values.clients)
const scale = Number(values.scale)
const ms = Number(values.seconds) * 1000
const serverCpus = pinSelf('0') ? '1' : undefined

const running = await system.start({
  runId: `cost-${Date.now().toString(36)}`,
  serverCpus,
  redisUrl: 'redis://127.0.0.1:6379',
  redisClusterUrl: () => Promise.reject(new Error('no cluster here')),
  scenario: defaultScenario,
})
try {
  await running.setRateScale(scale)
  await running.startTicks()
  console.log(
    `${system.name}, ${clients} clients at ×${scale}, ${ms / 1000} s windows, pinned: ${Boolean(serverCpus)}`,
  )
  for (let round = 0; round < Number(values.rounds); round++) {
    const kinds = [
      ...values.coalesce
        .split(',')
        .map((micros) => ({ name: `native ${micros} µs`, coalesceMicros: Number(micros) })),
      ...(values['no-node'] ? [] : [{ name: 'node', coalesceMicros: undefined }]),
    ]
    for (const { name: kind, coalesceMicros } of kinds) {
      const options = { url: running.url, protocol: system.protocol, clients, scenario: defaultScenario }
      const fleet =
        coalesceMicros === undefined
          ? new LeanClientFleet(options)
          : new NativeClientFleet({ ...options, coalesceMicros })
      try {
        await fleet.connect()
        await fleet.waitUntilAllReceived(15_000)
        await sleep(1000)
        // every frame read over a span, whatever its publish time: a backlogged server must not
        // make either generator look cheaper
        const sample = async (): Promise<{ frames: number; userMs: number; systemMs: number }> => {
          if (fleet instanceof NativeClientFleet) return fleet.stats()
          const { user, system } = process.cpuUsage()
          return { frames: fleet.totalFrames, userMs: user / 1000, systemMs: system / 1000 }
        }
        const before = await sample()
        const began = performance.now()
        await sleep(ms)
        const after = await sample()
        const seconds = (performance.now() - began) / 1000
        const frames = after.frames - before.frames
        const userMicros = (after.userMs - before.userMs) * 1000
        const systemMicros = (after.systemMs - before.systemMs) * 1000
        const perFrame = (micros: number): string => (micros / frames).toFixed(2)
        console.log(
          `  round ${round + 1} ${kind.padEnd(14)}: ${Math.round(frames / seconds)} frames/s read, generator ${(((userMicros + systemMicros) / 1e6 / seconds) * 100).toFixed(1)}% of a core, ${perFrame(userMicros + systemMicros)} µs per frame (user ${perFrame(userMicros)}, kernel ${perFrame(systemMicros)})`,
        )
      } finally {
        fleet.close()
      }
      await sleep(1000)
    }
  }
} finally {
  await running.stop()
}
process.exit(0)
