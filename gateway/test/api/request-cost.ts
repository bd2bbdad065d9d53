import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { buildGateway as BuildGateway } from '../../src/app'
import type { configWith as ConfigWith } from '../../src/config'

// CPU and event-loop cost of one gateway request, measured in process with `inject`, for a checkout's
// gateway (ROOT) against a minimal upstream in a child process so only the gateway's work is counted.
//
//   npx tsx gateway/test/api/request-cost.ts [ROOT …]     one child per ROOT, in turn, for ROUNDS rounds
//   gateway/test/api/checkout-at.sh SHA DIR                makes DIR a ROOT of an earlier commit
//
// Each ROOT is a checkout of the repository (default: this one); the rounds interleave the roots so a
// machine whose speed drifts affects them alike, and the report gives each case's median per root.

interface Case {
  name: string
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  payload?: string | Buffer
  repeat: number
}

const COIN = { symbol: 'btcusdt', coin: 'btc', price: '65000.12', change: '1.25', volume: '123456.78' }
const COIN_LIST = JSON.stringify({ code: 200, msg: 'ok', data: Array.from({ length: 160 }, () => COIN) })
const SESSION = JSON.stringify({ code: 200, msg: 'ok', data: { satoken: 't'.repeat(32), userId: '1' } })

/** 0.87 MB of extra keys: the schema refuses them, after the parse and every scan walked them. */
function manyKeysBody(keys: number): string {
  const extra = Array.from({ length: keys }, (_, index) => `"k${index}":1`).join(',')
  return `{"username":"abc","password":"secret12",${extra}}`
}

/** One string of escapes filling the JSON body limit: every decode round of the Chinese rule walks all of it. */
function oneEscapedStringBody(bytes: number): string {
  const unit = '\\\\u00e9%25%25ab'
  return `{"username":"abc","password":"secret12","x":"${unit.repeat(Math.floor((bytes - 60) / unit.length))}"}`
}

/** Strings full of escapes, each decoded again and again by the Chinese check before the schema refuses. */
function escapedStringsBody(strings: number): string {
  const items = Array.from({ length: strings }, () => '"\\\\u00e9%25%25ab"').join(',')
  return `{"username":"abc","password":"secret12","x":[${items}]}`
}

export const CASES: Case[] = [
  { name: 'getCoinList cached', method: 'GET', url: '/api/common/getCoinList', repeat: 400 },
  {
    name: 'getCoinList cached, br',
    method: 'GET',
    url: '/api/common/getCoinList',
    headers: { 'accept-encoding': 'br' },
    repeat: 400,
  },
  {
    name: 'login proxied',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: '{"username":"alice@example.com","password":"secret12"}',
    repeat: 300,
  },
  {
    name: 'kline query proxied',
    method: 'GET',
    url: '/api/market/kline?symbol=btcusdt&interval=1min&limit=100',
    repeat: 300,
  },
  {
    name: 'hostile 0.87 MB, 80k keys',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: manyKeysBody(80_000),
    repeat: 6,
  },
  {
    name: 'hostile 0.87 MB, 50k escaped strings',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: escapedStringsBody(50_000),
    repeat: 6,
  },
  {
    name: 'hostile 4 KiB, keys',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: manyKeysBody(440),
    repeat: 200,
  },
  {
    name: 'hostile 4 KiB, 60 keys',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: manyKeysBody(60),
    repeat: 200,
  },
  {
    name: 'hostile 4 KiB, one escaped string',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: oneEscapedStringBody(4096),
    repeat: 200,
  },
  {
    name: 'hostile 4 KiB, escaped strings',
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json' },
    payload: escapedStringsBody(200),
    repeat: 200,
  },
  {
    name: 'hostile 16 KB query of escapes',
    method: 'GET',
    url: `/api/market/kline?symbol=btcusdt&interval=1min&x=${'%2525ab'.repeat(2200)}`,
    repeat: 100,
  },
  {
    name: 'hostile upload, 16 KiB text part of escapes',
    method: 'POST',
    url: '/api/common/upload/OSS',
    // with a session, as an upload's body is only read for one
    headers: { 'content-type': 'multipart/form-data; boundary=cost', satoken: 't'.repeat(32) },
    payload:
      '--cost\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n' +
      `${'\\\\u00e9%25%25ab'.repeat(1090)}\r\n--cost--\r\n`,
    repeat: 100,
  },
]

/** A fixed upstream: the coin list for getCoinList, a session for everything else. */
function serveUpstream(): void {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const body = request.url?.startsWith('/api/common/getCoinList') ? COIN_LIST : SESSION
      response.writeHead(200, { 'content-type': 'application/json' }).end(body)
    })
  })
  server.listen(0, '127.0.0.1', () => {
    const address = server.address()
    process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`)
  })
}

async function measureRoot(root: string): Promise<void> {
  const upstream = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--upstream'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const [portLine] = (await once(upstream.stdout, 'data')) as [Buffer]
  const { buildGateway } = (await import(`${root}/gateway/src/app.ts`)) as {
    buildGateway: typeof BuildGateway
  }
  const { configWith } = (await import(`${root}/gateway/src/config.ts`)) as { configWith: typeof ConfigWith }
  const config = configWith({
    UPSTREAM_URL: `http://127.0.0.1:${portLine.toString().trim()}`,
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    WEB_DIST: '/nonexistent',
    RATE_LIMIT_PER_MINUTE: 1_000_000,
    // a checkout without the upload budget ignores it
    UPLOAD_RATE_PER_MINUTE: 1_000_000,
    MAX_EVENT_LOOP_DELAY_MS: 60_000,
  })
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  const app = await buildGateway(config, { logStream: sink })
  await app.ready()
  const results: Record<string, { cpuUs: number; wallMs: number; maxDelayMs: number; status: number }> = {}
  for (const testCase of selectedCases()) {
    const send = () =>
      app.inject({
        method: testCase.method,
        url: testCase.url,
        headers: testCase.headers,
        payload: testCase.payload,
      })
    const pauseMs = testCase.repeat < 20 ? 1100 : 0
    for (let index = 0; index < (pauseMs ? 1 : 20); index++) await send()
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    let cpuUs = 0
    let wallMs = 0
    let status = 0
    for (let index = 0; index < testCase.repeat; index++) {
      const cpu = process.cpuUsage()
      const started = performance.now()
      status = (await send()).statusCode
      const used = process.cpuUsage(cpu)
      wallMs += performance.now() - started
      cpuUs += used.user + used.system
      // let the loop turn, as it does between requests on a socket, so its delay is sampled; after a
      // slow request, wait out load shedding's sampling interval so the next one is measured, not shed
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
    delay.disable()
    results[testCase.name] = {
      cpuUs: cpuUs / testCase.repeat,
      wallMs: wallMs / testCase.repeat,
      maxDelayMs: delay.max / 1e6,
      status,
    }
  }
  await app.close()
  upstream.kill()
  process.stdout.write(`${JSON.stringify(results)}\n`)
}

/** CASES=pattern keeps the cases whose names match it, e.g. CASES='cached|proxied' */
function selectedCases(): Case[] {
  const filter = process.env.CASES
  return filter ? CASES.filter((testCase) => new RegExp(filter).test(testCase.name)) : CASES
}

async function drive(roots: string[], rounds: number): Promise<void> {
  const runs = new Map<
    string,
    Array<Record<string, { cpuUs: number; wallMs: number; maxDelayMs: number; status: number }>>
  >()
  for (let round = 0; round < rounds; round++) {
    for (const root of roots) {
      const child = spawn(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), '--root', root],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      )
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      await once(child, 'exit')
      const line = output.trim().split('\n').at(-1) ?? '{}'
      runs.set(root, [...(runs.get(root) ?? []), JSON.parse(line)])
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  for (const testCase of selectedCases()) {
    console.log(`\n${testCase.name} (${testCase.payload?.length ?? 0} bytes)`)
    for (const root of roots) {
      const list = (runs.get(root) ?? []).map((run) => run[testCase.name]!)
      console.log(
        `  ${root}: status ${list[0]?.status}, CPU ${median(list.map((r) => r.cpuUs)).toFixed(0)} µs/request, ` +
          `wall ${median(list.map((r) => r.wallMs)).toFixed(2)} ms, max loop delay ${median(list.map((r) => r.maxDelayMs)).toFixed(1)} ms` +
          ` (CPU per round: ${list.map((r) => r.cpuUs.toFixed(0)).join(' ')})`,
      )
    }
    if (roots.length === 2) {
      // round by round, so a machine that speeds up or slows down between rounds moves both alike
      const [first, second] = roots.map((root) =>
        (runs.get(root) ?? []).map((run) => run[testCase.name]!.cpuUs),
      )
      const ratios = first!.map((cpu, round) => second![round]! / cpu)
      console.log(`  CPU ratio second/first, median of rounds: ${median(ratios).toFixed(3)}`)
    }
  }
}

const argv = process.argv.slice(2)
if (argv[0] === '--upstream') serveUpstream()
else if (argv[0] === '--root') await measureRoot(argv[1]!)
else {
  const roots = argv.length ? argv : [fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '')]
  await drive(roots, Number(process.env.ROUNDS ?? 5))
}
