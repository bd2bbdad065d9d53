import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../live/processes'
import { waitFor } from '../live/helpers'
import { startDrillStack, type DrillStack } from './drill-stack'
import { ALERT_BOUND_MS, runFault, type FaultPlan, type FaultReport } from './fault'
import { feedFreeze, leaseHolderKill, redisKill, upstream5xxBurst } from './faults'
import { drillTable } from './report'

// The fault drill: real Redis, sandbox, three gateways, nginx and Prometheus with the shipped rules.
// `npm test` runs the quick form (Redis killed); `npm run drill` runs every fault below and writes
// docs/drills.md with the figures.

const FULL = process.env.DRILL === 'full'
const PLANS: FaultPlan[] = FULL ? [redisKill, upstream5xxBurst, feedFreeze, leaseHolderKill] : [redisKill]

describe(`fault drill (${FULL ? 'full' : 'quick'})`, () => {
  let stack: DrillStack
  const reports: FaultReport[] = []

  beforeAll(async () => {
    stack = await startDrillStack()
    await stack.clients.open(6)
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
    if (FULL && reports.length) {
      // written as the repository's formatter would, so `npm run lint` accepts the file as it is
      const file = path.join(repoRoot, 'docs/drills.md')
      const prettier = await import('prettier')
      const options = await prettier.resolveConfig(file)
      writeFileSync(file, await prettier.format(drillTable(reports), { ...options, filepath: file }))
    }
  }, 60_000)

  for (const plan of PLANS) {
    it(
      `${plan.name}: ${plan.expected.join(', ')} fire within 2 minutes and clear within 2 minutes of recovery`,
      async () => {
        const report = await runFault(stack, plan)
        reports.push(report)
        console.log(JSON.stringify(report))
        for (const name of plan.expected) {
          expect(report.firedAfter[name], `${name} fired`).toBeDefined()
          expect(report.firedAfter[name]! * 1000).toBeLessThanOrEqual(ALERT_BOUND_MS)
        }
        expect(report.clearedAfter * 1000).toBeLessThanOrEqual(ALERT_BOUND_MS)
        expect(report.firedAfterRecovery.filter((name) => plan.expected.includes(name))).toEqual([])
        if (plan === redisKill) {
          // REST needs no Redis and sockets keep their ticks: nobody notices but the operator
          expect(report.restFailed).toBe(0)
          expect(report.duplicates).toBe(0)
          expect(report.reconnects).toBe(0)
          expect(report.longestTickGap).toBeLessThan(10)
        }
      },
      2 * 2 * ALERT_BOUND_MS + 60_000,
    )
  }
})
