import type { DrillStack } from './drill-stack'

// One fault of the drill: inject it, wait for the alerts it should raise to fire, recover, wait for
// them to clear, and report the times and what the clients saw meanwhile.

export interface FaultPlan {
  name: string
  /** alerts that must fire during the fault and clear after it */
  expected: string[]
  inject(stack: DrillStack): Promise<void>
  recover(stack: DrillStack): Promise<void>
}

export interface FaultReport {
  name: string
  /** seconds from the fault to each expected alert firing */
  firedAfter: Record<string, number>
  /** seconds from the recovery until none of the expected alerts is pending or firing */
  clearedAfter: number
  /** every alert seen firing between the fault and its clearing */
  firing: string[]
  /** alerts that started firing after the recovery */
  firedAfterRecovery: string[]
  restFailed: number
  restTotal: number
  duplicates: number
  resyncs: number
  reconnects: number
  /** the longest time between two ticks on one socket, seconds */
  longestTickGap: number
}

/** Alerts must fire within 2 minutes of the fault and clear within 2 minutes of the recovery. */
export const ALERT_BOUND_MS = 120_000
const POLL_MS = 1000

export async function runFault(stack: DrillStack, plan: FaultPlan): Promise<FaultReport> {
  const { prometheus, clients } = stack
  const before = { ok: clients.restOk, failed: clients.restFailed, dup: clients.duplicates }
  const resyncsBefore = clients.resyncs
  const reconnectsBefore = clients.reconnects
  const firing = new Set<string>()
  const firedAfter: Record<string, number> = {}
  const startedAt = Date.now()
  await plan.inject(stack)
  // condition-driven: poll until every expected alert fires (the bound only matters on failure)
  while (plan.expected.some((name) => firedAfter[name] === undefined)) {
    for (const alert of await prometheus.alerts()) {
      if (alert.state !== 'firing') continue
      firing.add(alert.alertname)
      firedAfter[alert.alertname] ??= (Date.now() - startedAt) / 1000
    }
    if (Date.now() - startedAt > 2 * ALERT_BOUND_MS) break
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  const firingAtRecovery = new Set(firing)
  const recoveredAt = Date.now()
  await plan.recover(stack)
  const firedAfterRecovery = new Set<string>()
  let clearedAfter = Number.POSITIVE_INFINITY
  for (;;) {
    const alerts = await prometheus.alerts()
    for (const alert of alerts.filter((candidate) => candidate.state === 'firing')) {
      firing.add(alert.alertname)
      if (!firingAtRecovery.has(alert.alertname)) firedAfterRecovery.add(alert.alertname)
    }
    if (!alerts.some((alert) => plan.expected.includes(alert.alertname))) {
      clearedAfter = (Date.now() - recoveredAt) / 1000
      break
    }
    if (Date.now() - recoveredAt > 2 * ALERT_BOUND_MS) break
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  return {
    name: plan.name,
    firedAfter,
    clearedAfter,
    firing: [...firing].sort(),
    firedAfterRecovery: [...firedAfterRecovery].sort(),
    restFailed: clients.restFailed - before.failed,
    restTotal: clients.restOk + clients.restFailed - before.ok - before.failed,
    duplicates: clients.duplicates - before.dup,
    resyncs: clients.resyncs - resyncsBefore,
    reconnects: clients.reconnects - reconnectsBefore,
    longestTickGap: clients.longestGapSince(startedAt) / 1000,
  }
}
