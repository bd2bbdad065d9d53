/**
 * A/B of gateway builds against the bench's REST baselines, side by side in one run: the bench's own
 * wrk runner, this process and the sandbox on core 0, each server under test on core 1, round after
 * round so a slow spell lands on all of them.
 *
 * `npx tsx bench/rest-ab.ts --bundles before=/path/main.js,after=/path/main.js [--call cached|proxy]
 *   [--rounds 4] [--seconds 3] [--warmup 2] [--redis-url redis://127.0.0.1:6379]`
 *
 * Prints each build's median req/s and CPU per request with its same-round ratios to the baseline and to
 * the first build, then the same as Markdown table rows for RESULTS.md's "Decisions by A/B" section.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { pinSelf } from './child-process'
import { startGatewayProcess, startSandboxProcess } from './gateway-processes'
import { restTargets, settingsRequest, uncachedRequest, type RestTargetContext } from './rest-targets'
import { runWrk } from './wrk'
import { median } from './percentiles'
import { readCpuMicros } from './proc-stats'

const { values } = parseArgs({
  options: {
    bundles: { type: 'string' },
    call: { type: 'string', default: 'cached' },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'redis-url': { type: 'string', default: '' },
  },
})
const bundles = (values.bundles ?? '')
  .split(',')
  .filter(Boolean)
  .map((pair) => {
    const [name, file] = pair.split('=')
    return { name: name!, file: path.resolve(file!) }
  })
const cached = values.call === 'cached'
const request = cached ? settingsRequest : uncachedRequest
pinSelf('0')
const sandbox = await startSandboxProcess('0')
const ctx: RestTargetContext = {
  runId: `restab-${process.pid}`,
  serverCpus: '1',
  installMissing: false,
  sandbox: () => Promise.resolve(sandbox),
}

interface Started {
  url: string
  pid?: number
  stop(): Promise<void>
}

async function startGateway(file: string): Promise<Started> {
  const running = await startGatewayProcess({
    upstreamUrl: sandbox.url,
    feedToken: 'sandbox-feed-token',
    redisUrl: values['redis-url'],
    redisPrefix: `restab-${process.pid}-${Date.now()}:`,
    cpus: '1',
    bundle: file,
  })
  return { url: running.url, pid: running.process.pid, stop: running.stop }
}

/** The bench's own floor for the call: the bare Fastify route for the cached call, the bare node proxy else. */
const baseline = restTargets.find(
  (target) => target.name === (cached ? 'bare fastify route' : 'bare node proxy'),
)!
const targets: Array<{ name: string; start(): Promise<Started> }> = [
  {
    name: baseline.name,
    start: async () => {
      const started = await baseline.start(ctx)
      if ('unavailable' in started) throw new Error(`${baseline.name}: ${started.unavailable}`)
      return started
    },
  },
  ...bundles.map((bundle) => ({ name: bundle.name, start: () => startGateway(bundle.file) })),
]
interface Row {
  rps: number
  cpu: number
  net: number
  p50: number
  all: number
}
const results = new Map<string, Row[]>()
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const target of targets) {
      const started = await target.start()
      try {
        const base = { url: started.url, request, connections: Number(values.connections) }
        const warm = await runWrk({ ...base, seconds: Number(values.warmup) })
        // the target's own background (the gateway's live feed) over an idle second, taken out below
        const idleFrom = started.pid === undefined ? undefined : readCpuMicros(started.pid)
        const idleStart = performance.now()
        await sleep(1000)
        const idleTo = started.pid === undefined ? undefined : readCpuMicros(started.pid)
        const idleRate = ((idleTo ?? 0) - (idleFrom ?? 0)) / (performance.now() - idleStart)
        const run = await runWrk({ ...base, seconds: Number(values.seconds), targetPid: started.pid })
        if (run.non2xx || run.errors)
          console.error(`${target.name}: ${run.non2xx} non-2xx, ${run.errors} errors`)
        const row = {
          rps: run.requests / run.seconds,
          cpu: (run.targetCpuMicros ?? Number.NaN) / run.requests,
          net: ((run.targetCpuMicros ?? Number.NaN) - idleRate * run.cpuSeconds * 1000) / run.requests,
          p50: run.latencyMs.p50,
          all: warm.requests + run.requests,
        }
        results.set(target.name, [...(results.get(target.name) ?? []), row])
        console.error(
          `round ${round + 1} ${target.name}: ${Math.round(row.rps)} req/s, ${row.cpu.toFixed(1)} µs CPU/req (${row.net.toFixed(1)} net of idle), p50 ${row.p50} ms, ${row.all} requests in all`,
        )
      } finally {
        await started.stop()
      }
    }
  }
} finally {
  await sandbox.stop()
}
const ratios = (rows: Row[], against: Row[], figure: keyof Row) =>
  rows.map((row, i) => row[figure] / against[i]![figure])
const spread = (xs: number[]) =>
  `×${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`
const base = results.get(targets[0]!.name)!
const first = results.get(targets[1]?.name ?? targets[0]!.name)!
const markdown: string[] = []
for (const target of targets) {
  const rows = results.get(target.name)!
  const rps = Math.round(median(rows.map((r) => r.rps)))
  const cpu = median(rows.map((r) => r.cpu)).toFixed(1)
  console.log(
    `${target.name.padEnd(20)} req/s ${rps} (${spread(ratios(rows, base, 'rps'))})  CPU/req ${cpu} µs (${spread(ratios(rows, base, 'cpu'))})  net of idle ${spread(ratios(rows, base, 'net'))}`,
  )
  markdown.push(
    `| ${target.name} | ${rps.toLocaleString('en-US')} | ${cpu} | ${spread(ratios(rows, first, 'rps'))} | ${spread(ratios(rows, first, 'cpu'))} |`,
  )
}
console.log(
  `\n| build | req/s (median) | CPU µs/req | req/s vs ${targets[1]?.name ?? 'itself'}, same round | CPU/req vs it, same round |`,
)
console.log('| --- | --- | --- | --- | --- |')
console.log(markdown.join('\n'))
process.exit(0)
