// Number, table and row cells shared by the stdout report and RESULTS.md.
import type { StormReport } from './lean-client'
import type { RestRow, SocketRow } from './main'

export function formatNumber(value: number | undefined, digits = 0): string {
  if (value === undefined || Number.isNaN(value)) return '-'
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ')
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')
}

export function stormCell(storm: StormReport | undefined): string {
  if (!storm) return '-'
  const problems = [
    storm.failed ? `${formatNumber(storm.failed)} failed` : '',
    storm.missing ? `${formatNumber(storm.missing)} missing` : '',
  ].filter(Boolean)
  const spread = `spread ${formatNumber(storm.spreadMs / 1000, 1)} s`
  return problems.length === 0
    ? `${formatNumber(storm.ms)} ms (${spread})`
    : `not done in ${formatNumber(storm.ms)} ms (${spread}; ${problems.join(', ')})`
}

/** The slowest and fastest round of a REST target, e.g. `5,989–6,857`: how far the machine wandered. */
export function roundsRange(perSecond: number[] | undefined): string {
  if (!perSecond || perSecond.length === 0) return '-'
  const low = Math.min(...perSecond)
  const high = Math.max(...perSecond)
  return perSecond.length === 1 ? formatNumber(low) : `${formatNumber(low)}–${formatNumber(high)}`
}

/** A socket row's cells after its system name: the figures, or why there are none. */
export function socketCells(row: SocketRow): string[] {
  if (!row.ok || !row.window) return [formatNumber(row.clients), `FAILED: ${row.error ?? 'no figures'}`]
  const window = row.window
  return [
    formatNumber(row.clients),
    formatNumber(window.expectedPerSecond),
    formatNumber(window.deliveriesPerSecond),
    `${formatNumber((window.deliveriesPerSecond / window.expectedPerSecond) * 100)}%`,
    formatNumber(window.latencyMs.p50),
    formatNumber(window.latencyMs.p99),
    formatNumber(window.latencyMs.p999),
    formatNumber(row.serverCpuMicrosPerDelivery, 2),
    `${formatNumber(row.serverCpuPercent)}%`,
    `${formatNumber(window.clientCpuPercent)}%`,
    formatNumber(row.rssPerConnectionKb, 1),
    formatNumber(row.connect?.perSecond),
  ]
}

/** A REST row's figure cells (req/s, rounds, latency, one at a time, CPU, errors), or why there are none. */
export function restCells(row: RestRow): string[] {
  if (row.unavailable) return [`skipped: ${row.unavailable}`]
  if (!row.ok || !row.latencyMs) return [`FAILED: ${row.error ?? 'no figures'}`]
  return [
    formatNumber(row.requestsPerSecond),
    roundsRange(row.roundsPerSecond),
    formatNumber(row.latencyMs.p50, 2),
    formatNumber(row.latencyMs.p90, 2),
    formatNumber(row.latencyMs.p99, 2),
    formatNumber(row.latencyMs.p999, 2),
    formatNumber(row.serialLatencyMs?.p50, 3),
    formatNumber(row.serialLatencyMs?.p99, 3),
    formatNumber(row.serverCpuMicrosPerRequest, 1),
    String((row.errors ?? 0) + (row.non2xx ?? 0)),
  ]
}
