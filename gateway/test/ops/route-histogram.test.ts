import fc from 'fast-check'
import { Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { RouteHistogram } from '../../src/plugins/app/route-histogram'

// The request and upstream durations are counted by RouteHistogram instead of prom-client's Histogram
// (route-histogram.ts says why). What Prometheus and the dashboards read must not change: for the same
// observations, both write the same exposition and hand out the same JSON.

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.1, 1, 2, 2.5, 5]
const NAME = 'gateway_http_request_duration_seconds'
const HELP = 'Time to answer an HTTP request'

function pair(): { ours: RouteHistogram; theirs: Histogram<'route'>; registries: [Registry, Registry] } {
  const registries: [Registry, Registry] = [new Registry(), new Registry()]
  for (const registry of registries) registry.setDefaultLabels({ gateway_instance: 'gw-1' })
  // the buckets in another order: both sort them
  const ours = new RouteHistogram({
    name: NAME,
    help: HELP,
    buckets: [...BUCKETS].reverse(),
    registers: [registries[0]],
  })
  const theirs = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['route'],
    buckets: BUCKETS,
    registers: [registries[1]],
  })
  return { ours, theirs, registries }
}

/** JSON without prom-client's empty exemplar fields, which no reader of the gateway's metrics uses. */
async function jsonOf(registry: Registry): Promise<unknown> {
  return JSON.parse(
    JSON.stringify(await registry.getMetricsAsJSON(), (key, value) =>
      key === 'exemplar' ? undefined : value,
    ),
  )
}

const ROUTES = ['/api/common/getAllSetting', '/api/user/login', '/api/period/list', 'unmatched']

describe('RouteHistogram', () => {
  it('writes what prom-client writes for the same observations, bounds, overflow and routes included', async () => {
    const { ours, theirs, registries } = pair()
    // on a bound, just above it, below the first, above the last, zero
    const seconds = [0.0005, 0.00050001, 0.0001, 0, 1, 2.5, 7, 120, 0.003, 0.003]
    seconds.forEach((value, index) => {
      const route = ROUTES[index % ROUTES.length]!
      ours.labels(route).observe(value)
      theirs.labels(route).observe(value)
    })
    const text = await registries[0].metrics()
    expect(text).toBe(await registries[1].metrics())
    expect(text).toContain(`${NAME}_bucket{le="+Inf",gateway_instance="gw-1",route="unmatched"} 2`)
    expect(await jsonOf(registries[0])).toEqual(await jsonOf(registries[1]))
  })

  it('agrees with prom-client on any observations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom(...ROUTES),
            fc.oneof(fc.constantFrom(...BUCKETS), fc.double({ min: 0, max: 100, noNaN: true })),
          ),
          { maxLength: 60 },
        ),
        async (observations) => {
          const { ours, theirs, registries } = pair()
          for (const [route, value] of observations) {
            ours.labels(route).observe(value)
            theirs.labels(route).observe(value)
          }
          expect(await registries[0].metrics()).toBe(await registries[1].metrics())
        },
      ),
      { numRuns: 200 },
    )
  })

  it('starts again from nothing when the registry resets its metrics', async () => {
    const { ours, registries } = pair()
    ours.labels('/api/user/login').observe(0.002)
    registries[0].resetMetrics()
    expect(await registries[0].metrics()).not.toContain('_bucket')
    ours.labels('/api/user/login').observe(0.002)
    expect(await registries[0].metrics()).toContain(
      `${NAME}_count{gateway_instance="gw-1",route="/api/user/login"} 1`,
    )
  })

  it('counts no duration that is not a number, where prom-client would throw in the request', async () => {
    const { ours, registries } = pair()
    ours.labels('/api/user/login').observe(Number.NaN)
    ours.labels('/api/user/login').observe(0.002)
    expect(await registries[0].metrics()).toContain(
      `${NAME}_count{gateway_instance="gw-1",route="/api/user/login"} 1`,
    )
  })
})
