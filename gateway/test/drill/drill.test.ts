import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../live/processes'
import { waitFor } from '../live/helpers'
import { SANDBOX_SYMBOLS } from '../live/sandbox-upstream'
import { startDrillStack, type DrillStack, type DrillStackOptions } from './drill-stack'
import { ALERT_BOUND_MS, runFault, type FaultPlan, type FaultReport } from './fault'
import {
  clusterLeaseMasterKill,
  clusterOtherMasterKill,
  eventLoopStall,
  feedFreeze,
  leaseHolderKill,
  redisKill,
  rollingRestart,
  slowConsumers,
  socketFlood,
  upstream5xxBurst,
  upstreamFreeze,
} from './faults'
import { drillTable } from './report'
import { asGrafanaSends, dashboard, dashboardQueries } from '../ops/dashboard'

// The fault drill: real Redis, sandbox, three gateways, nginx (with mtail on its log) and Prometheus
// with the shipped rules. `npm test` runs the quick form (Redis killed); `npm run drill` runs every
// fault below, then the Redis Cluster's on a second stack of its own, and writes docs/drills.md with
// the figures. DRILL_ONLY=<parts of names, comma-separated> runs the matching faults alone, without
// writing the file (to work on one fault).

const FULL = process.env.DRILL === 'full'
const ONLY = process.env.DRILL_ONLY
const SINGLE_REDIS: FaultPlan[] = [
  redisKill,
  upstream5xxBurst,
  upstreamFreeze,
  feedFreeze,
  leaseHolderKill,
  socketFlood,
  slowConsumers,
  eventLoopStall,
  rollingRestart,
]
const REDIS_CLUSTER: FaultPlan[] = [clusterLeaseMasterKill, clusterOtherMasterKill]
const chosen = (plans: FaultPlan[], quick: FaultPlan[]): FaultPlan[] =>
  ONLY
    ? plans.filter((plan) => ONLY.split(',').some((part) => plan.name.includes(part)))
    : FULL
      ? plans
      : quick

const reports: FaultReport[] = []
afterAll(async () => {
  if (FULL && !ONLY && reports.length) {
    // written as the repository's formatter would, so `npm run lint` accepts the file as it is
    const file = path.join(repoRoot, 'docs/drills.md')
    const prettier = await import('prettier')
    const options = await prettier.resolveConfig(file)
    writeFileSync(file, await prettier.format(drillTable(reports), { ...options, filepath: file }))
  }
}, 60_000)

// the Redis Cluster gauges exist only with a cluster: the single stack answers every other query,
// the cluster stack those
const isMasterQuery = ({ expr }: { expr: string }): boolean => expr.includes('gateway_redis_masters')

drill('one Redis', {}, 6, chosen(SINGLE_REDIS, [redisKill]), (query) => !isMasterQuery(query))
drill(
  'Redis Cluster',
  // three masters with a replica each, at Redis's default cluster-node-timeout (15 s)
  { cluster: { nodeCount: 3, replicasPerMaster: 1 }, symbols: SANDBOX_SYMBOLS },
  SANDBOX_SYMBOLS.length,
  chosen(REDIS_CLUSTER, []),
  isMasterQuery,
)

function drill(
  title: string,
  options: DrillStackOptions,
  sockets: number,
  plans: FaultPlan[],
  answered: (query: { expr: string }) => boolean,
): void {
  // no fault chosen for this stack (the quick drill has no Cluster row): nothing to define, rather
  // than a suite reported as skipped
  if (plans.length === 0) return
  describe(`fault drill (${FULL ? 'full' : 'quick'}), ${title}`, () => {
    let stack: DrillStack

    beforeAll(async () => {
      stack = await startDrillStack(options)
      await stack.clients.open(sockets)
      stack.clients.startRest()
      // Prometheus sees all three gateways, one feed leader, and nothing firing before the first fault
      await waitFor(
        async () => (await stack.prometheus.query('sum(up{job="gateway"})')) === 3,
        'scrapes',
        60_000,
      )
      await waitFor(
        async () => (await stack.prometheus.query('sum(gateway_feed_leader)')) === 1,
        'one leader',
        60_000,
      )
      await waitFor(() => stack.clients.ticksSince(Date.now() - 5000) > 5, 'ticks on every socket', 60_000)
    }, 300_000)
    afterAll(async () => {
      await stack?.close()
    }, 60_000)

    it(
      'answers every dashboard query with data, from real Prometheus scraping the gateways and nginx',
      {
        timeout: 120_000,
      },
      async () => {
        const queries = dashboardQueries(await dashboard()).filter(answered)
        expect(queries.length).toBeGreaterThan(0)
        // the error panels show what failed: one refusal through nginx for them to show
        expect((await fetch(`http://127.0.0.1:${stack.nginx.port}/api/no-such-call`)).status).toBe(404)
        // a rate needs two scrapes in its window: wait for them, then name any query still empty
        let empty: string[] = []
        const emptyQueries = async (): Promise<string[]> => {
          const found: string[] = []
          for (const { where, expr } of queries)
            if ((await stack.prometheus.seriesCount(asGrafanaSends(expr))) === 0)
              found.push(`${where}: ${expr}`)
          return found
        }
        await waitFor(
          async () => (empty = await emptyQueries()).length === 0,
          'data for every query',
          90_000,
        ).catch(() => undefined)
        expect(empty).toEqual([])
      },
    )

    for (const plan of plans) {
      const alerts = plan.expected.length
        ? `${plan.expected.join(', ')} fire within 2 minutes and clear within 2 minutes of recovery`
        : 'no alert fires'
      it(
        `${plan.name}: ${alerts}${plan.quiet ? `; ${plan.quiet.join(', ')} stay quiet` : ''}`,
        async () => {
          const report = await runFault(stack, plan)
          reports.push(report)
          console.log(JSON.stringify(report))
          expect(report.activeAtStart, 'own alerts already active when the fault began').toEqual([])
          for (const name of plan.expected) {
            expect(report.firedAfter[name], `${name} fired`).toBeDefined()
            expect(report.firedAfter[name]! * 1000).toBeLessThanOrEqual(ALERT_BOUND_MS)
          }
          expect(report.clearedAfter * 1000).toBeLessThanOrEqual(ALERT_BOUND_MS)
          expect(report.firedAfterRecovery.filter((name) => plan.expected.includes(name))).toEqual([])
          expect(report.firing.filter((name) => plan.quiet?.includes(name))).toEqual([])
          plan.check?.(report)
        },
        2 * 2 * ALERT_BOUND_MS + 60_000,
      )
    }
  })
}
