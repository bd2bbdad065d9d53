import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { freePort } from '../../scripts/free-port.mjs'
import { CALLS } from '@tradegate/shared'
import { ownTempDir } from '../../gateway/test/support/owned-processes'
import { spawnPinned, waitForHttpOk } from './child-process'

export const NGINX_BINARY = '/usr/sbin/nginx'

export type NginxAvailability = { ok: true } | { ok: false; reason: string }

/** Finds a Debian package's binary, installing the package with apt only when it is missing and `install` is set. */
export function ensureDebianTool(binary: string, pkg: string, install: boolean): NginxAvailability {
  if (existsSync(binary)) return { ok: true }
  if (!install) return { ok: false, reason: `${binary} missing (installing was not allowed)` }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const aptInstall = (): number | null =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
      stdio: 'ignore',
      env,
      timeout: 180_000,
    }).status
  if (aptInstall() !== 0) {
    // A fresh container often has no package lists yet.
    spawnSync('apt-get', ['update'], { stdio: 'ignore', env, timeout: 180_000 })
    const status = aptInstall()
    if (status !== 0) return { ok: false, reason: `apt-get install ${pkg} failed (exit ${status})` }
  }
  return existsSync(binary) ? { ok: true } : { ok: false, reason: `${binary} missing after install` }
}

/** Finds Debian's nginx, installing nginx-light with apt only when it is missing and `install` is set. */
export function ensureNginx(install: boolean): NginxAvailability {
  const wasThere = existsSync(NGINX_BINARY)
  const found = ensureDebianTool(NGINX_BINARY, 'nginx-light', install)
  // Debian starts the service on install; the harness runs its own instance, so stop the packaged one.
  if (found.ok && !wasThere) spawnSync('service', ['nginx', 'stop'], { stdio: 'ignore' })
  return found
}

export interface NginxProxy {
  pid: number
  url: string
  pinned: boolean
  stop(): Promise<void>
}

/**
 * Runs nginx in the foreground from a temp prefix (-p) with a generated nginx.conf that proxies
 * everything to `upstreamUrl` over keep-alive connections. One process (no master) so its pid is
 * the one doing the work and /proc figures are comparable.
 */
export async function startNginxProxy(options: { upstreamUrl: string; cpus?: string }): Promise<NginxProxy> {
  const prefix = ownTempDir('loadtests-nginx-')
  const port = await freePort()
  const upstream = new URL(options.upstreamUrl)
  const conf = `
daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream backend {
    server ${upstream.hostname}:${upstream.port || 80};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
  }
}
`
  const confPath = path.join(prefix, 'nginx.conf')
  await writeFile(confPath, conf)
  const nginxArgs = ['-p', prefix, '-c', confPath, '-e', path.join(prefix, 'error.log')]
  const child = spawnPinned(NGINX_BINARY, nginxArgs, { cpus: options.cpus })
  const url = `http://127.0.0.1:${port}`
  try {
    // through to the sandbox: nginx and its upstream both answer
    await waitForHttpOk(url + CALLS.getAllSetting.path, child, 10_000)
  } catch (error) {
    await rm(prefix, { recursive: true, force: true })
    throw error
  }
  const stop = async (): Promise<void> => {
    await child.stop()
    await rm(prefix, { recursive: true, force: true })
  }
  return { pid: child.pid, url, pinned: child.pinned, stop }
}
