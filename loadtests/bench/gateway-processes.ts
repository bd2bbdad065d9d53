/**
 * The gateway and the sandbox as the harness runs them: the gateway from its built bundle
 * (`node gateway/dist/main.js`, rebuilt when missing or older than its sources), the sandbox from
 * `gateway/sandbox/main.ts`, each a child process pinned to the server core.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { CALLS } from '@tradegate/shared'
import { freePort } from '../../scripts/free-port.mjs'
import { gatewayProcessEnv } from '../../scripts/gateway-env.mjs'
import { loadtestsDir, spawnPinned, waitForHttpOk, type PinnedProcess } from './child-process'

export const repoRoot = path.resolve(loadtestsDir, '..')
export const gatewayBundle = path.join(repoRoot, 'gateway', 'dist', 'main.js')

let bundleChecked = false

/**
 * Builds the bundles when one is missing or older than its sources (the build's own rule, `--if-stale`), so
 * figures are of the current code; checked once per run, so every system in one run measures the same build.
 */
export function ensureGatewayBundle(log: (line: string) => void = (line) => console.error(line)): void {
  if (bundleChecked) return
  bundleChecked = true
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'gateway', 'build.mjs'), '--if-stale'], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
  if (build.status !== 0) throw new Error(`gateway build failed: ${build.stderr || build.stdout}`)
  log(build.stdout.trim())
}

export interface RunningProcessServer {
  process: PinnedProcess
  url: string
  stop(): Promise<void>
}

export interface GatewayOptions {
  upstreamUrl: string
  feedToken: string
  /** Empty: the in-memory bus. */
  redisUrl: string
  redisPrefix: string
  cpus: string | undefined
  /** Another build of the gateway than the bench's own bundle, e.g. to compare two builds. */
  bundle?: string
  /** Settings a row needs on top of these. */
  env?: Record<string, string>
  /** Node's own flags, before the bundle. */
  nodeFlags?: string[]
}

/**
 * Starts the bundled gateway and resolves once /readyz answers 200, which for the ingesting
 * instance means its upstream feed is open. Per-IP and rate limits are lifted: every client comes
 * from 127.0.0.1.
 */
export async function startGatewayProcess(options: GatewayOptions): Promise<RunningProcessServer> {
  const port = await freePort()
  const child = spawnPinned(
    process.execPath,
    [...(options.nodeFlags ?? []), options.bundle ?? gatewayBundle],
    {
      cpus: options.cpus,
      cwd: repoRoot,
      env: {
        // as the image and `npm start` run it
        ...gatewayProcessEnv(),
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        UPSTREAM_URL: options.upstreamUrl,
        FEED_TOKEN: options.feedToken,
        REDIS_URL: options.redisUrl,
        REDIS_PREFIX: options.redisPrefix,
        LOG_LEVEL: 'warn',
        WS_MAX_SOCKETS_PER_IP: '1000000',
        RATE_LIMIT_PER_MINUTE: '100000000',
        // The saturation ramp pushes the event loop on purpose; shedding would end the ramp early. 0 turns
        // shedding off: a high limit does not, since a loop that took no delay sample in a second sheds anyway.
        MAX_EVENT_LOOP_DELAY_MS: '0',
        SHUTDOWN_DRAIN_MS: '0',
        ...options.env,
      },
    },
  )
  const url = `http://127.0.0.1:${port}`
  await waitForHttpOk(`${url}/readyz`, child)
  return { process: child, url, stop: () => child.stop() }
}

/** Starts `npm run sandbox`'s program on a free port and resolves once it answers. */
export async function startSandboxProcess(cpus: string | undefined): Promise<RunningProcessServer> {
  const port = await freePort()
  const child = spawnPinned(process.execPath, ['--import', 'tsx', path.join('sandbox', 'main.ts')], {
    cpus,
    cwd: path.join(repoRoot, 'gateway'),
    env: { SANDBOX_PORT: String(port), LOG_LEVEL: 'warn', SANDBOX_SEED: '8' },
  })
  const url = `http://127.0.0.1:${port}`
  await waitForHttpOk(url + CALLS.getAllSetting.path, child)
  return { process: child, url, stop: () => child.stop() }
}
