import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { repoRoot } from '../live/processes'

// The Grafana dashboard's PromQL, for the tests that check it: by name against a running gateway,
// by parse with promtool, and against the drill's real Prometheus for data.

export const DASHBOARD = 'docker/grafana/dashboards/gateway.json'

export interface Panel {
  id: number
  type: string
  title: string
  datasource?: { uid: string }
  gridPos: { x: number; y: number; w: number; h: number }
  targets?: Array<{ expr: string; datasource?: { uid: string } }>
}

export interface Dashboard {
  panels: Panel[]
  templating: {
    list: Array<{ name: string; query: string | { query: string }; datasource?: { uid: string } }>
  }
}

export async function dashboard(): Promise<Dashboard> {
  return JSON.parse(await readFile(path.join(repoRoot, DASHBOARD), 'utf8')) as Dashboard
}

/** Every PromQL expression of the dashboard: panel targets and template variable queries. */
export function dashboardQueries(board: Dashboard): Array<{ where: string; expr: string }> {
  const queries = board.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })),
  )
  for (const variable of board.templating.list) {
    const query = typeof variable.query === 'string' ? variable.query : variable.query.query
    // label_values(metric, label) names a metric and a label, not two metrics
    const labelValues = /^label_values\((.+),\s*\w+\)$/.exec(query)
    queries.push({ where: `variable $${variable.name}`, expr: labelValues ? labelValues[1]! : query })
  }
  return queries
}

/** A query as Grafana sends it for the whole time range and every instance. */
export function asGrafanaSends(expr: string, rateInterval = '1m'): string {
  return expr.replaceAll('$__rate_interval', rateInterval).replaceAll('$instance', '.*')
}
