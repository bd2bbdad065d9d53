// The signed-in uploads row alone (its /healthz p99s and the gateway's RSS, before and after each read once
// the gateway has settled), on the built gateway and sandbox in <bundleDir> (main.js, sandbox.js) on <port>
// and <port>+1; MALLOC_* variables and node flags reach the gateway. With FLOOR=1 the same uploads go
// through the proxy floor (baselines/node-proxy-server.ts) instead of the gateway.
//   LABEL=defaults npx tsx bench/uploads-memory.ts ../gateway/dist 4402 [node flags...]
import { spawn } from 'node:child_process'
import os from 'node:os'
import { SIGNED_IN_UPLOAD_ENV, runSignedInUploads } from './signed-in-uploads'
const [dir, portArg, ...flags] = process.argv.slice(2)
const port = Number(portArg)
const sport = port + 1
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Resolves once `url` answers 200, asked every 200 ms. */
async function answering(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
}

const sandbox = spawn(process.execPath, [`${dir}/sandbox.js`], {
  env: { ...process.env, SANDBOX_PORT: String(sport), SANDBOX_HOST: '127.0.0.1', SANDBOX_SEED: '8' },
  stdio: 'ignore',
})
await answering(`http://127.0.0.1:${sport}/api/common/getAllSetting`)
const floorArgs = [
  '--import',
  'tsx',
  'baselines/node-proxy-server.ts',
  '--upstream',
  `http://127.0.0.1:${sport}`,
]
const target = process.env.FLOOR ? [...floorArgs, '--port', String(port)] : [`${dir}/main.js`]
const gw = spawn(process.execPath, [...flags, ...target], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    UPSTREAM_URL: `http://127.0.0.1:${sport}`,
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...SIGNED_IN_UPLOAD_ENV,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
})
await answering(`http://127.0.0.1:${port}/healthz`)
const load = os.loadavg()[0]!
const r = await runSignedInUploads({
  gatewayUrl: `http://127.0.0.1:${port}`,
  sandboxUrl: `http://127.0.0.1:${sport}`,
  pid: gw.pid,
  seconds: 10,
  settleSeconds: 60,
  settleLimitSeconds: 180,
})
const settled = r.rssMb.settled
console.log(
  `${process.env.LABEL}: load ${load.toFixed(1)}→${os.loadavg()[0]!.toFixed(1)} statuses ${JSON.stringify(r.statuses)} ` +
    `healthz p99 quiet ${r.healthzQuietMs.p99.toFixed(1)} loaded ${r.healthzLoadedMs.p99.toFixed(1)} ms (×${r.ratio.toFixed(1)}) ` +
    `rss before ${r.rssMb.before.toFixed(0)}${settled?.before ? '' : ' (not settled)'} peak ${r.rssMb.peak.toFixed(0)} ` +
    `after ${r.rssMb.after.toFixed(0)} at ${r.rssMb.afterSeconds.toFixed(0)} s${settled?.after ? '' : ' (not settled)'} MiB ` +
    `(${((r.rssMb.after / r.rssMb.before - 1) * 100).toFixed(0)}%)`,
)
gw.kill('SIGKILL')
sandbox.kill('SIGKILL')
