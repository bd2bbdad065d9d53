// Number, table and storm cells shared by the stdout report and RESULTS.md.
import type { StormReport } from './lean-client'

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
