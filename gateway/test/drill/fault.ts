import type { DrillStack } from './drill-stack'

// One fault of the drill: inject it, wait for the alerts it should raise to fire, recover, wait for
// them to clear, and report the times and what the clients saw meanwhile.

export interface FaultPlan {
  name: string
  /** alerts that must fire during the fault and clear after it */
  expected: string[]
  /** alerts that must not fire at any time from the fault until its alerts clear */
  quiet?: string[]
  inject(stack: DrillStack): Promise<void>
  recover(stack: DrillStack): Promise<void>
  /** figures of this fault's own (refused sockets, cut readers), read after the recovery */
  details?(stack: DrillStack): Promise<Record<string, number>>
  /** what clients must (not) have seen, asserted on the report */
  check?(report: FaultReport): void
}

export interface FaultReport {
  name: string
  /** expected alerts still pending or firing from before, when the fault began */
  activeAtStart: string[]
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
  /** seconds from the fault to the end of its recovery */
  outageSeconds: number
  /** failed REST calls by method, path and status */
  restFailedByCall: Record<string, number>
  /** 5xx that nginx made itself, without a gateway's answer */
  lbErrors: number
  duplicates: number
  resyncs: number
  reconnects: number
  /** the longest time between two ticks on one socket, seconds */
  longestTickGap: number
  details: Record<string, number>
}

/** Alerts must fire within 2 minutes of the fault and clear within 2 minutes of the recovery. */
export const ALERT_BOUND_MS = 120_000
const POLL_MS = 1000

/** Polls Prometheus's alerts in the background, keeping every firing one and when it first fired. */
function watchAlerts(stack: DrillStack, startedAt: number) {
  const firstFiring = new Map<string, number>()
  let stopped = false
  let latest: Array<{ alertname: string; state: string }> = []
  const poll = async (): Promise<void> => {
    while (!stopped) {
      latest = await stack.prometheus.alerts().catch(() => latest)
      for (const alert of latest)
        if (alert.state === 'firing' && !firstFiring.has(alert.alertname))
          firstFiring.set(alert.alertname, (Date.now() - startedAt) / 1000)
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  }
  const done = poll()
  return {
    firstFiring,
    active: () => latest,
    async stop() {
      stopped = true
      await done
    },
  }
}

const until = async (condition: () => boolean, startedAt: number): Promise<void> => {
  while (!condition() && Date.now() - startedAt <= 2 * ALERT_BOUND_MS)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
}

export async function runFault(stack: DrillStack, plan: FaultPlan): Promise<FaultReport> {
  const { clients } = stack
  // the fault starts once its own alerts are quiet: one still active from the fault before would be
  // reported as firing at once and clearing late, whatever this fault did (the frozen upstream's
  // 159 s to clear was GatewayHighErrorRatio still firing from the faults before it)
  const ownActive = async (): Promise<string[]> =>
    (await stack.prometheus.alerts().catch(() => []))
      .map((alert) => alert.alertname)
      .filter((name) => plan.expected.includes(name))
  let activeAtStart = await ownActive()
  const waitedFrom = Date.now()
  while (activeAtStart.length > 0 && Date.now() - waitedFrom <= 2 * ALERT_BOUND_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    activeAtStart = await ownActive()
  }
  const before = {
    ok: clients.restOk,
    failed: clients.restFailed,
    byCall: new Map(clients.restFailedByCall),
    lbErrors: clients.lbErrors,
    dup: clients.duplicates,
    resyncs: clients.resyncs,
    reconnects: clients.reconnects,
  }
  const startedAt = Date.now()
  const alerts = watchAlerts(stack, startedAt)
  await plan.inject(stack)
  // condition-driven: wait until every expected alert fires (the bound only matters on failure)
  await until(() => plan.expected.every((name) => alerts.firstFiring.has(name)), startedAt)
  const firingAtRecovery = new Set(alerts.firstFiring.keys())
  const recoveredAt = Date.now()
  await plan.recover(stack)
  const outageSeconds = (Date.now() - startedAt) / 1000
  let clearedAfter = Number.POSITIVE_INFINITY
  // the poller's view must postdate the recovery before "cleared" is believed
  const seenAfterRecovery = Date.now() + 2 * POLL_MS
  await until(() => {
    if (Date.now() < seenAfterRecovery) return false
    if (alerts.active().some((alert) => plan.expected.includes(alert.alertname))) return false
    clearedAfter = (Date.now() - recoveredAt) / 1000
    return true
  }, recoveredAt)
  // every socket ticking again before the gap is measured and the next fault starts
  await until(() => clients.ticksSince(recoveredAt) > 0, recoveredAt)
  const longestTickGap = clients.longestGapSince(startedAt) / 1000
  // the next fault starts from a quiet board: whatever this one left pending or firing clears first
  await until(() => alerts.active().length === 0, Date.now())
  await alerts.stop()
  const restFailedByCall: Record<string, number> = {}
  for (const [call, count] of clients.restFailedByCall) {
    const added = count - (before.byCall.get(call) ?? 0)
    if (added > 0) restFailedByCall[call] = added
  }
  return {
    name: plan.name,
    activeAtStart,
    firedAfter: Object.fromEntries(
      plan.expected.flatMap((name) =>
        alerts.firstFiring.has(name) ? [[name, alerts.firstFiring.get(name)!]] : [],
      ),
    ),
    clearedAfter,
    firing: [...alerts.firstFiring.keys()].sort(),
    firedAfterRecovery: [...alerts.firstFiring.keys()].filter((name) => !firingAtRecovery.has(name)).sort(),
    restFailed: clients.restFailed - before.failed,
    restTotal: clients.restOk + clients.restFailed - before.ok - before.failed,
    outageSeconds,
    restFailedByCall,
    lbErrors: clients.lbErrors - before.lbErrors,
    duplicates: clients.duplicates - before.dup,
    resyncs: clients.resyncs - before.resyncs,
    reconnects: clients.reconnects - before.reconnects,
    longestTickGap,
    details: (await plan.details?.(stack)) ?? {},
  }
}
