// Cost of one request's metric updates, prom-client against the gateway's batched counter and route
// histogram, in this process:
// `npx tsx test/ops/metric-cost.ts`. Each variant is timed over ROUNDS interleaved rounds; the median
// round is reported in ns per update.
import { Counter, Histogram, Registry } from 'prom-client'
import { batchedCounter, labelledChildren } from '../../src/plugins/app/metrics'
import { RouteHistogram } from '../../src/plugins/app/route-histogram'

const N = 2_000_000
const ROUNDS = 7
const BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 5, 10, 15, 30, 60,
]
const registers = [new Registry()]
const counter = new Counter({ name: 'c', help: 'c', labelNames: ['route', 'method', 'status'], registers })
const counter2 = new Counter({ name: 'c2', help: 'c', labelNames: ['route', 'method', 'status'], registers })
const counter3 = new Counter({ name: 'c3', help: 'c', labelNames: ['route', 'method', 'status'], registers })
const histogram = new Histogram({ name: 'h', help: 'h', labelNames: ['route'], buckets: BUCKETS, registers })
const histogram2 = new Histogram({
  name: 'h2',
  help: 'h',
  labelNames: ['route'],
  buckets: BUCKETS,
  registers,
})
const routeHistogram = new RouteHistogram({ name: 'h3', help: 'h', buckets: BUCKETS, registers })
const route = '/api/common/getAllSetting'
const batched = batchedCounter(counter2)
const children = labelledChildren(counter3)
const histogramChildren = labelledChildren(histogram2)
const seconds = (i: number) => 0.0001 + (i % 100) * 0.00001

const variants: Record<string, () => void> = {
  'counter inc({labels})': () => {
    for (let i = 0; i < N; i++) counter.inc({ route, method: 'GET', status: 200 })
  },
  'counter labelledChildren(...).inc()': () => {
    for (let i = 0; i < N; i++) children(route, 'GET', 200).inc()
  },
  'batchedCounter(...).inc()': () => {
    for (let i = 0; i < N; i++) batched(route, 'GET', 200).inc()
  },
  'histogram labels(route).observe': () => {
    for (let i = 0; i < N; i++) histogram.labels(route).observe(seconds(i))
  },
  'histogram labelledChildren(route).observe': () => {
    for (let i = 0; i < N; i++) histogramChildren(route).observe(seconds(i))
  },
  'RouteHistogram labels(route).observe': () => {
    for (let i = 0; i < N; i++) routeHistogram.labels(route).observe(seconds(i))
  },
}
const times = new Map<string, number[]>()
for (let round = 0; round < ROUNDS; round++)
  for (const [name, run] of Object.entries(variants)) {
    const start = process.hrtime.bigint()
    run()
    const ns = Number(process.hrtime.bigint() - start) / N
    times.set(name, [...(times.get(name) ?? []), ns])
  }
for (const [name, values] of times) {
  const sorted = [...values].sort((a, b) => a - b)
  console.log(
    `${name.padEnd(44)} ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ns (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)})`,
  )
}
// the exposition must agree: same counts through both paths
console.log((await registers[0]!.getSingleMetricAsString('c2')).split('\n').at(-1))
