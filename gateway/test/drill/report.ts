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
      `${report.duplicates}`,
      `${report.resyncs}`,
      `${report.reconnects}`,
      `${report.longestTickGap.toFixed(1)} s`,
    ]
  })
  const header = [
    'fault',
    'alerts fired after the fault',
    'cleared after recovery',
    'other alerts firing',
    'started after recovery',
    'REST failed',
    'duplicate ticks',
    'resync frames',
    'socket reconnects',
    'longest tick gap',
  ]
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`
  return [
    '# Fault drills',
    '',
    'Written by `npm run drill` (gateway/test/drill): Redis, the sandbox, three gateways behind',
    '`docker/nginx.conf` in Debian nginx, and Debian Prometheus loading `docker/prometheus/gateway-rules.yml`',
    'unchanged (scrape and evaluation every 1 s; the rules keep their own windows and `for` times). Six',
    'sockets through nginx watch btcusdt ticks (every 100 ms) and a REST loop through nginx makes three',
    'calls every 100 ms (two cached, one the upstream answers). Each fault is held until its alerts fire,',
    'then recovered. "REST failed" counts 5xx answers and network errors from the fault to the alerts',
    "clearing (in the 5xx burst they are the upstream's own 500s, passed through).",
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
    '',
  ].join('\n')
}
