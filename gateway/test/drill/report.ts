import type { FaultReport } from './fault'

// docs/drills.md: each fault's alert times and what clients saw, from one `npm run drill`.

const seconds = (value: number): string => (Number.isFinite(value) ? `${Math.round(value)} s` : 'never')

export function drillTable(reports: FaultReport[]): string {
  const rows = reports.map((report) => {
    const fired = Object.entries(report.firedAfter)
      .map(([name, after]) => `${name} ${seconds(after)}`)
      .join(', ')
    const others = report.firing.filter((name) => !(name in report.firedAfter))
    return [
      report.name,
      fired || 'none',
      seconds(report.clearedAfter),
      others.join(', ') || 'none',
      report.firedAfterRecovery.join(', ') || 'none',
      `${report.restFailed} of ${report.restTotal}`,
      `${(report.restFailed / report.outageSeconds).toFixed(2)} over ${seconds(report.outageSeconds)}`,
      `${report.lbErrors}`,
      `${report.duplicates}`,
      `${report.resyncs}`,
      `${report.reconnects}`,
      `${report.longestTickGap.toFixed(1)} s`,
      Object.entries(report.details)
        .map(([what, count]) => `${what}: ${count}`)
        .join(', ') || '',
    ]
  })
  const header = [
    'fault',
    'alerts fired after the fault',
    'cleared after recovery',
    'other alerts firing',
    'started after recovery',
    'REST failed',
    'REST failed per second of outage',
    "nginx's own 5xx",
    'duplicate ticks',
    'resync frames',
    'socket reconnects',
    'longest tick gap',
    'fault figures',
  ]
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`
  return [
    '# Fault drills',
    '',
    'Written by `npm run drill` (gateway/test/drill): Redis, the sandbox behind a TCP fault proxy, three',
    'gateways behind `docker/nginx.conf` in Debian nginx with Debian mtail on its access log',
    '(`docker/mtail/nginx.mtail`), and Debian Prometheus loading `docker/prometheus/gateway-rules.yml`',
    'unchanged (scrape and evaluation every 1 s; the rules keep their own windows and `for` times). The',
    'gateways run at their defaults but two: `WS_PING_INTERVAL_MS=5000` (a reader that stopped reading is',
    'cut within 10 s, so its alert fires within 2 minutes), and no load shedding (as every test gateway:',
    'other work on a shared machine alone delays an event loop past the default 1 s). Six sockets through nginx watch btcusdt ticks (every 100 ms). The REST',
    'load is open loop, as users meet an outage: every 250 ms four calls go out through nginx (two cached',
    'lists, one GET and one POST the upstream answers), whether or not the earlier ones were answered,',
    "16 a second, under nginx's 20 a second per address. Each fault is held until its alerts fire (the",
    'upstream freeze for 75 s at least, past the coin list\'s stale window), then recovered. "REST failed"',
    'counts 5xx answers and network errors from the fault to the alerts clearing, and per second of',
    'outage (from the fault to the end of its recovery); "nginx\'s own 5xx" those nginx made without any',
    "gateway's answer. The flood comes from 127.0.0.2 and the slow readers (subscribed, then never",
    'reading) from 127.0.0.3, both through nginx. The event-loop stall stops one gateway for 300 ms of',
    'every 400 ms (SIGSTOP/SIGCONT). The rolling restart sends SIGTERM to each gateway in turn and starts',
    "it again, the next one once nginx sends requests to the restarted one again (seen in nginx's access",
    'log). The Redis Cluster rows run last, on a stack of their own: the same with a Redis Cluster of',
    "three masters with a replica each, at Redis's default `cluster-node-timeout` (15 s), and eight",
    'sockets, one per sandbox symbol. The first kills the master that holds the feed lease key, the',
    'second another master; each recovery waits for a replica to serve the lost slots, starts the old',
    'master again (it rejoins as a replica) and waits for ticks on every socket. Their figures count the',
    "sockets whose symbol hashes to the lost master's shard, the seconds to the failover, the longest",
    'tick gap on that shard and on the others, the sockets without a tick since the failover, the feed',
    'leaders after it, and whether the lease passed to another gateway (1) or not (0).',
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
    '',
  ].join('\n')
}
