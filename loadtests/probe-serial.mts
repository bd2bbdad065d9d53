import { spawn } from 'node:child_process'
import { measureSerialLatency } from './bench/serial-latency'
import { uncachedRequest } from './bench/rest-targets'
const dir = '../gateway/dist/after'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const pin = (core: string, args: string[]) => spawn('taskset', ['-c', core, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
const sb = spawn('taskset', ['-c', '0', process.execPath, `${dir}/sandbox.js`], { env: { ...process.env, SANDBOX_PORT: '4621', SANDBOX_HOST: '127.0.0.1', LOG_LEVEL: 'warn', SANDBOX_SEED: '8' }, stdio: 'ignore' })
await sleep(1500)
const lines: string[] = []
const gw = spawn('taskset', ['-c', '1', process.execPath, ...(process.env.NODEFLAGS ? process.env.NODEFLAGS.split(' ') : []), `${dir}/main.js`], { env: { PATH: process.env.PATH!, PORT: '4620', HOST: '127.0.0.1', UPSTREAM_URL: 'http://127.0.0.1:4621', REDIS_URL: '', LOG_LEVEL: 'info', WEB_DIST: '/nonexistent', RATE_LIMIT_PER_MINUTE: '100000000', MAX_EVENT_LOOP_DELAY_MS: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
let buf = ''
gw.stdout!.on('data', (d) => { buf += d; const parts = buf.split('\n'); buf = parts.pop()!; for (const l of parts) if (l.includes('"request"') || l.includes('periodList')) lines.push(l) })
const bp = spawn('taskset', ['-c', '1', process.execPath, '--import', 'tsx', 'baselines/node-proxy-server.ts', '--upstream', 'http://127.0.0.1:4621', '--port', '4622'], { stdio: ['pipe', 'pipe', 'inherit'] })
for (;;) { try { const r = await fetch('http://127.0.0.1:4620/readyz'); if (r.ok) break } catch {} await sleep(200) }
await sleep(2000)
const N = 3000
for (let round = 0; round < 2; round++) {
  const direct = await measureSerialLatency('http://127.0.0.1:4621', uncachedRequest, N)
  lines.length = 0
  const gateway = await measureSerialLatency('http://127.0.0.1:4620', uncachedRequest, N)
  const parsed = lines.map((l) => JSON.parse(l)).filter((l) => l.ms !== undefined)
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  console.log(`direct p50 ${direct.p50.toFixed(3)}; gateway p50 ${gateway.p50.toFixed(3)}; gateway's own ms p50 ${med(parsed.map((l) => l.ms))}, upstreamMs p50 ${med(parsed.map((l) => l.upstreamMs))} (${parsed.length} lines)`)
  try { const bare = await measureSerialLatency('http://127.0.0.1:4622', uncachedRequest, N); console.log(`bare proxy p50 ${bare.p50.toFixed(3)}`) } catch (e) { console.log('bare', String(e)) }
}
gw.kill(); sb.kill(); bp.kill()
