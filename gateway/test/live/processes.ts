import { spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../../scripts/free-port.mjs'
import { ownTempDir, spawnOwned, stopOwned } from '../support/owned-processes'

// Real processes for the scale-out test: gateway instances run exactly as operators run them, and
// Debian's nginx in front with the docker/nginx.conf the compose file uses.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

export interface ChildHandle {
  port: number
  pid: number
  /** last lines of its output, for failure messages */
  output(): string
  kill(signal?: NodeJS.Signals): Promise<void>
}

function track(child: ChildProcess, port: number): ChildHandle {
  let output = ''
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return {
    port,
    pid: child.pid ?? -1,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      // past the gateway's own SHUTDOWN_TIMEOUT_MS (8 s): a drain that runs long on a starved machine
      // is not cut mid-request, which would fail a POST nginx cannot retry
      await stopOwned(child, { signal, graceMs: 10_000 })
    },
  }
}

/** Waits until `url` answers; a process that never does is ended before the error is thrown. */
async function waitForHttp(url: string, child: ChildHandle, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) })
      if (response.status < 500) return
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await child.kill('SIGKILL')
      throw new Error(`${url} did not answer in time; output: ${child.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** `node --import tsx gateway/src/main.ts` with the given environment, on a free port unless PORT is given. */
export async function startGatewayProcess(env: Record<string, string>): Promise<ChildHandle> {
  // a restarted instance comes back on its own port, where the load balancer expects it
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const child = spawnOwned(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const handle = track(child, port)
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, handle)
  return handle
}

/** nginx, installed from Debian when missing; a clear failure when that is impossible. */
export function nginxBinary(): string {
  const binary = '/usr/sbin/nginx'
  if (spawnSync(binary, ['-v']).status === 0) return binary
  const install = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && apt-get install -y -qq nginx-light || apt-get install -y -qq nginx'],
    {
      stdio: 'ignore',
      timeout: 180_000,
    },
  )
  if (install.status !== 0 || spawnSync(binary, ['-v']).status !== 0) {
    throw new Error(
      'nginx is needed for the scale-out test: install it with `apt-get install -y nginx-light`',
    )
  }
  return binary
}

/** Runs docker/nginx.conf with the gateways' local ports in place of the compose service names. */
export interface NginxHandle extends ChildHandle {
  /** the access log written so far: one JSON object per line */
  accessLog(): string
  /** where nginx writes its access log */
  accessLogFile: string
  /** nginx's error log so far (why it failed a request: refused, reset, timed out) */
  errorLog(): string
  close(): Promise<void>
}

export async function startNginx(gatewayPorts: number[]): Promise<NginxHandle> {
  const binary = nginxBinary()
  const port = await freePort()
  const prefix = ownTempDir('tradegate-nginx-')
  // nginx's workers write request bodies under it, and run as nobody when the tests run as root
  chmodSync(prefix, 0o755)
  const template = readFileSync(path.join(repoRoot, 'docker/nginx.conf'), 'utf8')
  // the shipped file's server parameters (max_fails, fail_timeout), only the addresses change
  const parameters = /^\s*server gateway-a:8080([^;]*);/m.exec(template)?.[1] ?? ''
  const servers = gatewayPorts.map((gatewayPort) => `server 127.0.0.1:${gatewayPort}${parameters};`)
  const conf = [
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    template
      .replace(/^\s*server gateway-[ab]:8080[^;]*;\s*$/gm, '')
      .replace(/upstream gateways \{/, `upstream gateways {\n    ${servers.join('\n    ')}`)
      .replace(/worker_processes auto;/, 'worker_processes 1;')
      .replace(/worker_connections \d+;/, 'worker_connections 4096;')
      .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
      .replace(/access_log \/var\/log\/nginx\/access\.log/, `access_log ${prefix}/access.log`)
      .replace(
        /http \{/,
        ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
          .map((kind) => `${kind === 'body' ? 'client_body' : kind}_temp_path ${prefix}/${kind};`)
          .reduce((text, line) => `${text}\n  ${line}`, 'http {'),
      ),
  ].join('\n')
  writeFileSync(path.join(prefix, 'nginx.conf'), conf)
  const child = spawnOwned(
    binary,
    ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const handle = track(child, port)
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, handle, 10_000)
  return {
    ...handle,
    accessLog: () => readFileSync(path.join(prefix, 'access.log'), 'utf8'),
    accessLogFile: path.join(prefix, 'access.log'),
    errorLog: () => readFileSync(path.join(prefix, 'error.log'), 'utf8'),
    async close() {
      await handle.kill('SIGTERM')
      rmSync(prefix, { recursive: true, force: true })
    },
  }
}

export interface LogMetricsHandle extends ChildHandle {
  /** host:port of its Prometheus /metrics */
  target: string
  /** a counter's value summed over its series, 0 when it has none yet */
  counter(name: string, labels?: Record<string, string>): Promise<number>
}

/**
 * Debian's mtail running docker/mtail/nginx.mtail unchanged on an nginx access log, as the compose
 * file's nginx-log service does: the load balancer's own errors as Prometheus counters.
 */
export async function startNginxLogMetrics(accessLogFile: string): Promise<LogMetricsHandle> {
  if (spawnSync('mtail', ['--version']).status !== 0)
    throw new Error('the load balancer metrics need mtail: apt-get install -y mtail')
  const port = await freePort()
  const child = spawnOwned(
    'mtail',
    [
      '--progs',
      path.join(repoRoot, 'docker/mtail'),
      '--logs',
      accessLogFile,
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--logtostderr',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const handle = track(child, port)
  const url = `http://127.0.0.1:${port}/metrics`
  await waitForHttp(url, handle, 20_000)
  return {
    ...handle,
    target: `127.0.0.1:${port}`,
    async counter(name, labels = {}) {
      const text = await (await fetch(url)).text()
      let sum = 0
      for (const [, series, value] of text.matchAll(/^(\S+?(?:\{[^}]*\})?) (\S+)$/gm)) {
        if (series !== name && !series!.startsWith(`${name}{`)) continue
        if (Object.entries(labels).every(([key, wanted]) => series!.includes(`${key}="${wanted}"`)))
          sum += Number(value)
      }
      return sum
    },
  }
}
