/**
 * A/B of gateway builds against the bench's REST baselines, side by side in one run: the bench's own
 * REST rounds (rest-rounds.ts), this process and the sandbox on core 0, each server under test on
 * core 1, round after round so a slow spell lands on all of them.
 *
 * `npx tsx bench/rest-ab.ts --bundles before=/path/main.js,after=/path/main.js [--call cached|proxy]
 *   [--rounds 4] [--seconds 3] [--warmup 2] [--redis-url redis://127.0.0.1:6379]
 *   [--node-options after=--max-semi-space-size=1] [--env after=MALLOC_TRIM_THRESHOLD_=1048576]`
 *
 * `--node-options NAME=FLAGS` gives one build's gateway process Node flags of its own (through
 * NODE_OPTIONS, so only that process gets them): the same bundle twice, with and without a flag, is an
 * A/B of the flag. `--env NAME=KEY=VALUE` does the same for an environment variable read at the
 * process's start (glibc's malloc settings, say).
 *
 * Prints each build's median req/s and CPU per request with its same-round ratios to the baseline and to
 * the first build, then the same as Markdown table rows for RESULTS.md's "Decisions by A/B" section.
 * Every round counts, generator-bound or not: on a busy host only the same-round ratios are read.
 */
import path from 'node:path'
import { parseArgs } from 'node:util'
import { pinSelf } from './child-process'
import { sameRoundRatios } from './generator-bound'
import { runRestRounds } from './rest-rounds'
import {
  PROXIED_FLOOR,
  restTarget,
  settingsRequest,
  startGatewayOverSandbox,
  uncachedRequest,
  withSandbox,
  type RestTarget,
} from './rest-targets'
import type { RestRow } from './types'

const { values } = parseArgs({
  options: {
    bundles: { type: 'string' },
    call: { type: 'string', default: 'cached' },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'redis-url': { type: 'string', default: '' },
    'node-options': { type: 'string', multiple: true, default: [] },
    env: { type: 'string', multiple: true, default: [] },
  },
})
/** NAME=FLAGS pairs: the flags after the first `=` belong to the build called NAME. */
const nodeOptions = new Map(
  values['node-options'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
)
/** NAME=KEY=VALUE: an environment variable of the build called NAME. */
const buildEnv = new Map<string, Record<string, string>>()
for (const setting of values.env) {
  const [name, key, ...value] = setting.split('=')
  buildEnv.set(name!, { ...buildEnv.get(name!), [key!]: value.join('=') })
}
const cached = values.call === 'cached'
const request = cached ? settingsRequest : uncachedRequest
/** The bench's own floor for the call: the bare Fastify route for the cached call, the bare node proxy else. */
const baseline = restTarget(cached ? 'bare fastify route' : PROXIED_FLOOR)
const builds: RestTarget[] = (values.bundles ?? '')
  .split(',')
  .filter(Boolean)
  .map((pair) => {
    const [name, file] = pair.split('=')
    const flags = nodeOptions.get(name!)
    const gateway = {
      bundle: path.resolve(file!),
      redisUrl: values['redis-url'],
      env: { ...buildEnv.get(name!), ...(flags ? { NODE_OPTIONS: flags } : {}) },
    }
    return { name: name!, start: (ctx) => startGatewayOverSandbox(ctx, request, gateway) }
  })
const rounds = Number(values.rounds)
pinSelf('0')
const rows = await withSandbox(
  { runId: `restab-${process.pid}`, serverCpus: '1', generatorCpus: '0' },
  { installMissing: false },
  (ctx) =>
    runRestRounds(
      [baseline, ...builds],
      ctx,
      {
        warmupMs: Number(values.warmup) * 1000,
        restSeconds: Number(values.seconds) * rounds,
        restRounds: rounds,
        restConnections: Number(values.connections),
        serialRequests: 0,
      },
      (line) => console.error(line),
    ),
)

/** Same-round ratios of one figure of `row` to `against`'s, as `×median (low–high)`. */
function ratio(
  row: RestRow,
  against: RestRow | undefined,
  figure: 'requestsPerSecond' | 'cpuMicrosPerRequest',
): string {
  const pick = (of: RestRow | undefined) => (of?.rounds ?? []).map((round) => round[figure])
  const spread = sameRoundRatios(pick(row), pick(against))
  return spread ? `×${spread.median.toFixed(2)} (${spread.low.toFixed(2)}–${spread.high.toFixed(2)})` : '-'
}
const [base, first = base] = rows
const markdown: string[] = []
for (const row of rows) {
  if (!row.ok) {
    console.log(`${row.target.padEnd(20)} ${row.unavailable ?? row.error ?? 'failed'}`)
    continue
  }
  const rps = Math.round(row.requestsPerSecond ?? Number.NaN)
  const cpu = (row.serverCpuMicrosPerRequest ?? Number.NaN).toFixed(1)
  console.log(
    `${row.target.padEnd(20)} req/s ${rps} (${ratio(row, base, 'requestsPerSecond')})  CPU/req ${cpu} µs (${ratio(row, base, 'cpuMicrosPerRequest')})`,
  )
  markdown.push(
    `| ${row.target} | ${rps.toLocaleString('en-US')} | ${cpu} | ${ratio(row, first, 'requestsPerSecond')} | ${ratio(row, first, 'cpuMicrosPerRequest')} |`,
  )
}
console.log(
  `\n| build | req/s (median) | CPU µs/req | req/s vs ${first?.target ?? 'itself'}, same round | CPU/req vs it, same round |`,
)
console.log('| --- | --- | --- | --- | --- |')
console.log(markdown.join('\n'))
process.exit(0)
