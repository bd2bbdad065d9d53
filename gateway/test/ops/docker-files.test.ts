import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../src/config'
import { GATEWAY_PROCESS_ENV } from '../../../scripts/gateway-env.mjs'

// No Docker engine here: the Dockerfile, compose.yaml and nginx.conf are checked as files, and
// nginx.conf by Debian's nginx itself with the compose service names mapped to this machine.

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const dockerDir = path.join(repoRoot, 'docker')
const NGINX_BINARY = '/usr/sbin/nginx'
const read = (file: string): Promise<string> => readFile(path.join(dockerDir, file), 'utf8')

interface Service {
  build?: { context: string; dockerfile: string; target?: string }
  image?: string
  command?: string[]
  environment?: Record<string, string>
  ports?: string[]
  volumes?: Array<string | Record<string, unknown>>
  depends_on?: Record<string, unknown> | string[]
}

async function compose(): Promise<Record<string, Service>> {
  return (parse(await read('compose.yaml'), { merge: true }) as { services: Record<string, Service> })
    .services
}

/** Stage name -> its lines, from a Dockerfile's FROM ... AS name lines. */
function stages(dockerfile: string): Map<string, string[]> {
  const result = new Map<string, string[]>()
  let current: string[] = []
  for (const line of dockerfile.split('\n')) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line)
    if (from) result.set(from[1]!, (current = []))
    current.push(line)
  }
  return result
}

describe('docker/Dockerfile', () => {
  it('has a gateway target running the bundle with plain node and a separate sandbox target, no tsx at run time', async () => {
    const dockerfile = await read('Dockerfile')
    const byStage = stages(dockerfile)
    expect([...byStage.keys()]).toEqual(expect.arrayContaining(['gateway', 'sandbox']))
    const cmd = (stage: string): string => byStage.get(stage)!.find((line) => line.startsWith('CMD'))!
    expect(cmd('gateway')).toBe('CMD ["node", "gateway/dist/main.js"]')
    expect(cmd('sandbox')).toBe('CMD ["node", "gateway/dist/sandbox.js"]')
    expect(dockerfile).not.toMatch(/^CMD.*tsx/m)
    // the gateway's default port and the port it exposes agree with DESIGN.md (8080)
    expect(byStage.get('gateway')!.join('\n')).toMatch(/ENV PORT=8080[\s\S]*EXPOSE 8080/)
    for (const [, from] of dockerfile.matchAll(/--from=(\S+)/g)) expect(byStage.has(from!)).toBe(true)
    expect(dockerfile).toContain('npm run build -w gateway')
  })

  it('starts the gateway with the process environment npm start and the bench give it', async () => {
    const env = new Map<string, string>()
    for (const line of stages(await read('Dockerfile')).get('gateway')!)
      if (line.startsWith('ENV '))
        for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env.set(key!, value!)
    for (const [key, value] of Object.entries(GATEWAY_PROCESS_ENV)) expect(env.get(key), key).toBe(value)
  })

  it('is the last stage by default for the gateway, so a plain docker build gives the gateway', async () => {
    expect([...stages(await read('Dockerfile')).keys()].at(-1)).toBe('gateway')
  })
})

describe('docker/compose.yaml', () => {
  it('runs redis, the sandbox, two gateways, nginx and its log metrics, prometheus, alertmanager and grafana, each gateway built from the gateway target', async () => {
    const services = await compose()
    expect(Object.keys(services).sort()).toEqual([
      'alertmanager',
      'gateway-a',
      'gateway-b',
      'grafana',
      'nginx',
      'nginx-log',
      'prometheus',
      'redis',
      'sandbox',
    ])
    expect(services.sandbox!.build?.target).toBe('sandbox')
    for (const name of ['gateway-a', 'gateway-b']) expect(services[name]!.build?.target).toBe('gateway')
    expect(services.nginx!.ports).toEqual(['8080:80'])
    expect(services.nginx!.volumes).toContain('./nginx.conf:/etc/nginx/nginx.conf:ro')
    // mtail reads the access log nginx writes into the volume they share
    expect(services['nginx-log']!.build?.target).toBe('nginx-log')
    expect(services.nginx!.volumes).toContainEqual(
      expect.objectContaining({ source: 'nginx-log', target: '/var/log/nginx', volume: { nocopy: true } }),
    )
    expect(services['nginx-log']!.volumes).toContain('nginx-log:/var/log/nginx:ro')
  })

  it('gives the gateways only settings the gateway reads, pointing at the services by name', async () => {
    const services = await compose()
    const known = new Set(Object.keys(loadConfig({})))
    const sandboxEnv = services.sandbox!.environment!
    const ids = new Set<string>()
    for (const name of ['gateway-a', 'gateway-b']) {
      const env = services[name]!.environment!
      for (const key of Object.keys(env)) expect(known, `${name}: ${key}`).toContain(key)
      // every variable is valid for the gateway's own config reader
      expect(() => loadConfig(env)).not.toThrow()
      expect(new URL(env.UPSTREAM_URL!).host).toBe(`sandbox:${sandboxEnv.SANDBOX_PORT}`)
      expect(new URL(env.REDIS_URL!).hostname).toBe('redis')
      expect(env.FEED_TOKEN).toBe(sandboxEnv.FEED_TOKEN)
      ids.add(env.INSTANCE_ID!)
    }
    expect(ids.size).toBe(2)
  })
})

describe('docker/compose.cluster.yaml over docker/compose.yaml', () => {
  /** the two files merged as `docker compose -f compose.yaml -f compose.cluster.yaml` merges them, service by service */
  async function merged(): Promise<Record<string, Service>> {
    const base = await compose()
    const override = (
      parse(await read('compose.cluster.yaml'), { merge: true }) as { services: Record<string, Service> }
    ).services
    const services: Record<string, Service> = { ...base }
    for (const [name, service] of Object.entries(override)) {
      const under = base[name]
      services[name] =
        under && name.startsWith('gateway-')
          ? {
              ...under,
              environment: { ...under.environment, ...service.environment },
              depends_on: { ...(under.depends_on as object), ...(service.depends_on as object) },
            }
          : { ...under, ...service }
    }
    return services
  }

  it('runs three masters with a replica each at the default node timeout, made one cluster before the gateways start', async () => {
    const services = await merged()
    const nodes = Object.keys(services).filter((name) => /^redis(-\d)?$/.test(name))
    expect(nodes.sort()).toEqual(['redis', 'redis-2', 'redis-3', 'redis-4', 'redis-5', 'redis-6'])
    for (const node of nodes) {
      const command = services[node]!.command!
      expect(command).toEqual(expect.arrayContaining(['--cluster-enabled', 'yes']))
      // Redis's default cluster-node-timeout (15 s): a replica takes over within it and a few seconds
      expect(command.join(' ')).not.toContain('cluster-node-timeout')
    }
    const init = services['redis-cluster-init']!
    const script = init.command!.join(' ')
    expect(script).toMatch(/--cluster create[\s\S]*--cluster-replicas 1/)
    for (const node of nodes) expect(script).toMatch(new RegExp(`\\b${node}\\b`))
    expect(Object.keys(init.depends_on as object).sort()).toEqual(nodes.sort())

    const known = new Set(Object.keys(loadConfig({})))
    for (const name of ['gateway-a', 'gateway-b']) {
      const gateway = services[name]!
      const env = gateway.environment!
      for (const key of Object.keys(env)) expect(known, `${name}: ${key}`).toContain(key)
      expect(() => loadConfig(env)).not.toThrow()
      // every node named, so a gateway finds the cluster whichever node is down when it starts
      expect(env.REDIS_URL).toBe(`redis-cluster://${nodes.map((node) => `${node}:6379`).join(',')}`)
      expect((gateway.depends_on as Record<string, { condition: string }>)['redis-cluster-init']).toEqual({
        condition: 'service_completed_successfully',
      })
    }
  })
})

describe('monitoring in docker/compose.yaml', () => {
  it('prometheus scrapes every gateway on its metrics port and loads rule files that exist', async () => {
    const services = await compose()
    const prometheus = services.prometheus!
    expect(prometheus.volumes).toContain('./prometheus:/etc/prometheus:ro')
    const config = parse(await read('prometheus/prometheus.yml')) as {
      rule_files: string[]
      scrape_configs: Array<{
        job_name: string
        honor_labels?: boolean
        static_configs: Array<{ targets: string[] }>
      }>
    }
    const job = config.scrape_configs.find((scrape) => scrape.job_name === 'gateway')!
    // the rules select job="gateway"; `instance` stays the target's, as on `up` (the gateway's own
    // name is its gateway_instance label), so the scrape must not honour the gateway's labels
    expect(job.honor_labels ?? false).toBe(false)
    const gateways = Object.keys(services).filter((name) => name.startsWith('gateway-'))
    expect(job.static_configs.flatMap((group) => group.targets).sort()).toEqual(
      gateways.map((name) => `${name}:${services[name]!.environment!.METRICS_PORT}`),
    )
    // the load balancer's own errors come from mtail on nginx's log
    const nginxJob = config.scrape_configs.find((scrape) => scrape.job_name === 'nginx')!
    expect(nginxJob.static_configs.flatMap((group) => group.targets)).toEqual(['nginx-log:3903'])
    for (const file of config.rule_files)
      await expect(read(`prometheus/${file}`)).resolves.toContain('groups:')
    // Prometheus sends its alerts to the compose file's Alertmanager, which loads the shipped config
    const alerting = (
      config as unknown as {
        alerting: { alertmanagers: Array<{ static_configs: Array<{ targets: string[] }> }> }
      }
    ).alerting
    expect(
      alerting.alertmanagers.flatMap((am) => am.static_configs.flatMap((group) => group.targets)),
    ).toEqual(['alertmanager:9093'])
    expect(services.alertmanager!.volumes).toContain('./alertmanager:/etc/alertmanager:ro')
    // nothing but localhost reaches the monitoring ports
    for (const name of ['prometheus', 'grafana', 'alertmanager']) {
      for (const port of services[name]!.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/)
    }
  })

  it('grafana is provisioned with the prometheus service and the dashboards folder', async () => {
    const services = await compose()
    expect(services.grafana!.volumes).toEqual(
      expect.arrayContaining([
        './grafana/provisioning:/etc/grafana/provisioning:ro',
        './grafana/dashboards:/var/lib/grafana/dashboards:ro',
      ]),
    )
    const sources = parse(await read('grafana/provisioning/datasources/prometheus.yml')) as {
      datasources: Array<{ type: string; url: string }>
    }
    expect(sources.datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090' }),
    ])
    const dashboards = parse(await read('grafana/provisioning/dashboards/gateway.yml')) as {
      providers: Array<{ options: { path: string } }>
    }
    expect(dashboards.providers[0]!.options.path).toBe('/var/lib/grafana/dashboards')
    await expect(read('grafana/dashboards/gateway.json')).resolves.toContain('"uid": "tradegate-gateway"')
  })
})

describe('docker/nginx.conf', () => {
  it('passes the WebSocket upgrade through to both gateways on /ws/', async () => {
    const conf = await read('nginx.conf')
    const services = await compose()
    const ws = /location \/ws\/ \{([\s\S]*?)\n {4}\}/.exec(conf)?.[1] ?? ''
    expect(ws).toContain('proxy_http_version 1.1;')
    expect(ws).toContain('proxy_set_header Upgrade $http_upgrade;')
    expect(ws).toContain('proxy_set_header Connection $connection_upgrade;')
    expect(conf).toMatch(/map \$http_upgrade \$connection_upgrade \{[^}]*default upgrade;/)
    // the public side never answers /metrics, whatever a gateway's settings
    expect(conf).toMatch(/location = \/metrics \{\s*return 404;\s*\}/)
    const servers = [...conf.matchAll(/^\s*server (\S+?):(\d+)/gm)].map((match) => match[1])
    expect(servers.sort()).toEqual(Object.keys(services).filter((name) => name.startsWith('gateway-')))
  })

  it('never retries a sent POST, never counts a gateway 502 or 504 against it, and forgives single failures', async () => {
    const conf = await read('nginx.conf')
    const retries = [...conf.matchAll(/^\s*proxy_next_upstream ([^;]*);/gm)].map((match) => match[1]!)
    expect(retries.length).toBeGreaterThanOrEqual(2)
    for (const conditions of retries) {
      expect(conditions).not.toMatch(/non_idempotent|http_502|http_504/)
    }
    for (const [, fails] of conf.matchAll(/^\s*server \S+ [^;]*max_fails=(\d+)/gm))
      expect(Number(fails)).toBeGreaterThanOrEqual(3)
    expect(conf).toMatch(/access_log \S+ gateway_json;/)
    expect(conf).toMatch(/location = \/nginx_status \{[^}]*stub_status;[^}]*deny all;/)
  })

  it('passes `nginx -t` with the service names mapped to this machine', async () => {
    const prefix = await mkdtemp(path.join(tmpdir(), 'docker-nginx-'))
    try {
      const conf = (await read('nginx.conf'))
        .replace(/server gateway-[ab]:8080/g, 'server 127.0.0.1:8080')
        .replace('listen 80;', 'listen 127.0.0.1:18080;')
        .replace(
          'http {',
          `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log;\nhttp {\n  client_body_temp_path ${prefix};\n  proxy_temp_path ${prefix};`,
        )
      const file = path.join(prefix, 'nginx.conf')
      await writeFile(file, conf)
      const result = spawnSync(
        NGINX_BINARY,
        ['-t', '-p', prefix, '-c', file, '-e', path.join(prefix, 'error.log')],
        {
          encoding: 'utf8',
        },
      )
      expect(result.stderr).toContain('syntax is ok')
      expect(result.status, result.stderr).toBe(0)
    } finally {
      await rm(prefix, { recursive: true, force: true })
    }
  })
})
