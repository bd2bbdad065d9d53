import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { CALLS } from '@tradegate/shared'
import { createMetrics } from '../../src/plugins/app/metrics'
import { REDIS_URL, startTestGateway, waitFor, type TestGateway } from '../helpers'
import { freePort } from '../../../scripts/free-port.mjs'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from '../live/sandbox-upstream'
import { asGrafanaSends, dashboard, dashboardQueries } from './dashboard'

// The alert rules and the dashboard name only metrics that a running gateway exports, so neither can
// drift from the code; every alert is unit-tested both ways and has its runbook section.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const read = (file: string): Promise<string> => readFile(path.join(repoRoot, file), 'utf8')
const RULES = 'docker/prometheus/gateway-rules.yml'
const RULE_TESTS = 'docker/prometheus/gateway-rules.test.yml'
const DATASOURCES = 'docker/grafana/provisioning/datasources/prometheus.yml'
const RUNBOOK = 'docs/operations.md'
/** The load balancer's metrics come from its access log, through mtail, not from a gateway. */
const NGINX_LOG_PROGRAM = 'docker/mtail/nginx.mtail'

/** Series Prometheus makes itself for every target; the gateway cannot export them. */
const PROMETHEUS_SERIES = new Set(['up'])
/** Exported only with a Redis Cluster (REDIS_URL redis-cluster://…); the test gateway uses one Redis. */
const CLUSTER_ONLY = ['gateway_redis_masters', 'gateway_redis_masters_up']

const PROMQL_KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
])

/** Metric names in a PromQL expression: identifiers that are not functions, keywords, labels or literals. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  const names = new Set<string>()
  for (const match of bare.matchAll(/(?<![\w.$])[A-Za-z_:][\w:]*/g)) {
    const name = match[0]
    const after = bare.slice(match.index + name.length).trimStart()
    if (after.startsWith('(') || PROMQL_KEYWORDS.has(name.toLowerCase())) continue
    names.add(name)
  }
  return [...names]
}

/** Every name a /metrics text exposes, with a histogram's _bucket, _sum and _count series. */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>()
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!)
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name! + suffix)
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name! + suffix)
  }
  return names
}

interface Rule {
  record?: string
  alert?: string
  expr: string
  annotations?: Record<string, string>
}

/** The metrics mtail's program makes of nginx's access log. */
async function logProgramMetrics(): Promise<Set<string>> {
  const program = await read(NGINX_LOG_PROGRAM)
  return new Set([...program.matchAll(/^(?:counter|gauge) (\w+)/gm)].map(([, name]) => name!))
}

async function rules(): Promise<Rule[]> {
  const file = parse(await read(RULES)) as { groups: Array<{ rules: Rule[] }> }
  return file.groups.flatMap((group) => group.rules)
}

describe('metric names in the rules and the dashboard', () => {
  let upstream: SandboxUpstream
  let gateway: TestGateway
  let exposed = new Set<string>()

  beforeAll(async () => {
    upstream = await startSandboxUpstream(100)
    const metricsPort = await freePort()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL,
      METRICS_PORT: metricsPort,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    await waitFor(() => gateway.app.live.feed.connected, 'the gateway reading the sandbox feed')
    await gateway.app.inject({ url: CALLS.getCoinList.path })
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(response.status).toBe(200)
    exposed = exposedNames(await response.text())
    // the cluster gauges are the gateway's own, left out of the registry only without a cluster
    const registered = createMetrics('names').registry
    for (const name of CLUSTER_ONLY) if (registered.getSingleMetric(name)) exposed.add(name)
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('reads metric names out of PromQL, leaving functions, labels, keywords and literals out', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (route, le) (rate(a_bucket{route=~"x|y", le!="1"}[5m]))) > 2e-1',
      ),
    ).toEqual(['a_bucket'])
    expect(metricNamesIn('b:c:rate5m / on (job) group_left (x) d offset 5m and bool e unless f')).toEqual([
      'b:c:rate5m',
      'd',
      'e',
      'f',
    ])
    expect(metricNamesIn('g{instance=~"$instance"} and on (instance) h == 1')).toEqual(['g', 'h'])
  })

  it('the gateway, or the load balancer log program, exposes every metric the rules read', async () => {
    const all = await rules()
    const recorded = new Set(all.flatMap((rule) => (rule.record ? [rule.record] : [])))
    const fromLog = await logProgramMetrics()
    expect(fromLog).toEqual(
      new Set(['nginx_http_responses_total', 'nginx_lb_errors_total', 'nginx_edge_limited_total']),
    )
    const known = (name: string): boolean =>
      exposed.has(name) || recorded.has(name) || PROMETHEUS_SERIES.has(name) || fromLog.has(name)
    const unknown = all.flatMap((rule) =>
      metricNamesIn(rule.expr)
        .filter((name) => !known(name))
        .map((name) => `${rule.record ?? rule.alert}: ${name}`),
    )
    expect(unknown).toEqual([])
    // the test reads something: each rule names at least one metric
    for (const rule of all) expect(metricNamesIn(rule.expr).length, rule.expr).toBeGreaterThan(0)
  })

  it('the gateway, or the load balancer log program, exposes every metric the dashboard reads', async () => {
    const queries = dashboardQueries(await dashboard())
    expect(queries.length).toBeGreaterThan(20)
    const fromLog = await logProgramMetrics()
    const unknown = queries.flatMap(({ where, expr }) =>
      metricNamesIn(expr)
        .filter((name) => !exposed.has(name) && !fromLog.has(name))
        .map((name) => `${where}: ${name}`),
    )
    expect(unknown).toEqual([])
  })

  it('the dashboard has a panel on each signal an operator watches', async () => {
    const text = JSON.stringify(dashboardQueries(await dashboard()).map(({ expr }) => expr))
    for (const name of [
      'gateway_http_requests_total',
      'gateway_http_request_duration_seconds_bucket',
      'gateway_upstream_request_duration_seconds_bucket',
      'gateway_cache_requests_total',
      'gateway_ws_connections',
      'gateway_ws_messages_sent_total',
      'gateway_ws_dropped_total',
      'gateway_ws_topics',
      'gateway_feed_leader',
      'gateway_feed_lag_seconds',
      'gateway_redis_up',
      'gateway_http_errors_total',
      'gateway_ws_closed_total',
      'gateway_ws_refused_total',
      'gateway_feed_last_frame_timestamp_seconds',
      'gateway_upstream_up',
      'gateway_bus_up',
      'gateway_redis_masters',
      'gateway_redis_masters_up',
      'nginx_http_responses_total',
      'nginx_lb_errors_total',
      'nginx_edge_limited_total',
      'gateway_event_loop_delay_seconds_bucket',
      'process_resident_memory_bytes',
    ]) {
      expect(text, name).toContain(name)
    }
    // prom-client's event-loop gauges restart at every scrape, so two Prometheus servers would each
    // show a part of the delays: the panel reads the histogram every scraper sees whole
    expect(text).not.toContain('nodejs_eventloop_lag')
  })
})

describe('the dashboard file', () => {
  it('uses the provisioned data source and lays its panels out on the 24-column grid', async () => {
    const board = await dashboard()
    const sources = parse(await read(DATASOURCES)) as { datasources: Array<{ uid: string; url: string }> }
    const uids = new Set(sources.datasources.map((source) => source.uid))
    const ids = new Set<number>()
    for (const panel of board.panels) {
      expect(ids.has(panel.id), `panel id ${panel.id}`).toBe(false)
      ids.add(panel.id)
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24)
      if (panel.type === 'row') continue
      expect(uids.has(panel.datasource?.uid ?? ''), panel.title).toBe(true)
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0)
      for (const target of panel.targets ?? [])
        expect(uids.has(target.datasource?.uid ?? ''), panel.title).toBe(true)
    }
  })

  it('every query parses as PromQL (checked by promtool)', async () => {
    const queries = dashboardQueries(await dashboard())
    // Grafana's variables replaced by what it would send
    const rulesFile = {
      groups: [
        {
          name: 'dashboard',
          rules: queries.map(({ expr }, index) => ({
            record: `dashboard:query_${index}`,
            expr: asGrafanaSends(expr),
          })),
        },
      ],
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'dashboard-promql-'))
    try {
      const file = path.join(dir, 'rules.yml')
      await writeFile(file, JSON.stringify(rulesFile))
      const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', file])
      expect(stdout).toContain(`SUCCESS: ${queries.length} rules found`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('alert rules', () => {
  it('links runbooks under an absolute base address, the runbook itself', async () => {
    const config = parse(await read('docker/prometheus/prometheus.yml')) as {
      global: { external_labels: { runbook_base_url: string } }
    }
    expect(config.global.external_labels.runbook_base_url).toMatch(
      new RegExp(`^https://[^#\\s]+/${RUNBOOK.replace('.', '\\.')}$`),
    )
  })

  it('each alert is tested firing and not firing, and links a runbook section that exists', async () => {
    const alerts = (await rules()).filter((rule) => rule.alert)
    expect(alerts.length).toBeGreaterThanOrEqual(10)
    const tests = parse(await read(RULE_TESTS)) as {
      tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }> }>
    }
    const cases = tests.tests.flatMap((test) => test.alert_rule_test)
    const runbook = await read(RUNBOOK)
    const anchors = new Set(
      [...runbook.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
        heading!
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replaceAll(' ', '-'),
      ),
    )
    for (const { alert, annotations } of alerts) {
      const mine = cases.filter((test) => test.alertname === alert)
      expect(
        mine.some((test) => test.exp_alerts.length > 0),
        `${alert} fires in a test`,
      ).toBe(true)
      expect(
        mine.some((test) => test.exp_alerts.length === 0),
        `${alert} stays quiet in a test`,
      ).toBe(true)
      expect(annotations?.runbook_url).toBe(`{{ $externalLabels.runbook_base_url }}#${alert!.toLowerCase()}`)
      expect(anchors, `${RUNBOOK} has a section ${alert}`).toContain(alert!.toLowerCase())
    }
  })
})
