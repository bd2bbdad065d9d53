import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { freePort } from '../../../scripts/free-port.mjs'
import { ownTempDir, spawnOwned, stopOwned } from '../support/owned-processes'
import { repoRoot } from '../live/processes'

// Debian's Prometheus loading the shipped rules file unchanged, scraping the drill's gateways. Only
// the scrape and evaluation intervals are the drill's own (1 s), so a fault shows within seconds of
// the rules' own windows and `for` times.

export interface Alert {
  alertname: string
  state: 'pending' | 'firing'
  labels: Record<string, string>
}

export interface RunningPrometheus {
  url: string
  alerts(): Promise<Alert[]>
  /** the value of an instant query's first series, or null */
  query(expr: string): Promise<number | null>
  /** how many series an instant query returns */
  seriesCount(expr: string): Promise<number>
  close(): Promise<void>
}

const BINARY = '/usr/bin/prometheus'

function prometheusBinary(): string {
  if (spawnSync(BINARY, ['--version']).status === 0) return BINARY
  const install = spawnSync('sh', ['-c', 'apt-get install -y -qq prometheus'], { stdio: 'ignore' })
  if (install.status !== 0 || spawnSync(BINARY, ['--version']).status !== 0)
    throw new Error('the drill needs Prometheus: apt-get install -y prometheus')
  return BINARY
}

/** Scrape targets by job name: `gateway` (honoring the gateways' instance labels), `nginx` (mtail). */
export async function startPrometheus(targets: Record<string, string[]>): Promise<RunningPrometheus> {
  const binary = prometheusBinary()
  const dir = ownTempDir('tradegate-prometheus-')
  const port = await freePort()
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: [path.join(repoRoot, 'docker/prometheus/gateway-rules.yml')],
    scrape_configs: Object.entries(targets).map(([job, list]) => ({
      job_name: job,
      honor_labels: job === 'gateway',
      static_configs: [{ targets: list }],
    })),
  }
  const file = path.join(dir, 'prometheus.yml')
  writeFileSync(file, JSON.stringify(config))
  const child = spawnOwned(
    binary,
    [
      `--config.file=${file}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
  const api = async <T>(pathAndQuery: string): Promise<T> => {
    const response = await fetch(url + pathAndQuery)
    return ((await response.json()) as { data: T }).data
  }
  const deadline = Date.now() + 120_000
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline) {
      await stopOwned(child)
      throw new Error('prometheus did not become ready')
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    url,
    async alerts() {
      const data = await api<{ alerts: Array<{ labels: Record<string, string>; state: Alert['state'] }> }>(
        '/api/v1/alerts',
      )
      return data.alerts.map((alert) => ({
        alertname: alert.labels.alertname ?? '',
        state: alert.state,
        labels: alert.labels,
      }))
    },
    async query(expr) {
      const data = await api<{ result: Array<{ value: [number, string] }> }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      )
      const first = data.result[0]
      return first ? Number(first.value[1]) : null
    },
    async seriesCount(expr) {
      const data = await api<{ result: unknown[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`)
      return data.result.length
    },
    async close() {
      await stopOwned(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
