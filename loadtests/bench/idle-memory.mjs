// An idle gateway's memory: the built sandbox and gateway from <bundleDir> (main.js, sandbox.js) on <port> and
// <port>+1, the gateway with Redis (NOREDIS=1 for none), read after <seconds>: RSS and /metrics' heap figures.
// SNAP=<dir> (with --heapsnapshot-signal=SIGWINCH --diagnostic-dir=<dir>) then writes a heap snapshot for
// bench/heap-groups.ts. MALLOC_* variables and node flags pass through to the gateway.
//   node bench/idle-memory.mjs ../gateway/dist 4410 60 [node flags...]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
const [dir, portArg, secondsArg, ...flags] = process.argv.slice(2)
const port = Number(portArg),
  sport = port + 1
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const sandbox = spawn(process.execPath, [`${dir}/sandbox.js`], {
  env: { ...process.env, SANDBOX_PORT: String(sport), SANDBOX_HOST: '127.0.0.1' },
  stdio: 'ignore',
})
await sleep(1500)
const gw = spawn(process.execPath, [...flags, `${dir}/main.js`], {
  env: {
    PATH: process.env.PATH,
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MALLOC'))),
    PORT: String(port),
    HOST: '127.0.0.1',
    UPSTREAM_URL: `http://127.0.0.1:${sport}`,
    REDIS_URL: process.env.NOREDIS ? '' : 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `mem${Date.now()}:`,
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
})
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gw.pid}/status`, 'utf8'))[1]) / 1024
const metric = async (name) => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  return [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)`, 'gm'))]
    .map((m) => `${m[1] ?? ''}=${(Number(m[2]) / 2 ** 20).toFixed(1)}`)
    .join(' ')
}
// the idle window starts once the feed is connected: an idle gateway of production holds the feed's
// books and frames, and a read before the feed came in would report a leaner gateway than operators run
for (;;) {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    if (/^gateway_feed_connected(\{[^}]*\})? 1$/m.test(text)) break
  } catch {
    // not listening yet
  }
  await sleep(200)
}
await sleep(Number(secondsArg) * 1000)
console.log(
  `rss ${rss().toFixed(1)} MiB; heap used ${await metric('nodejs_heap_size_used_bytes')}; total ${await metric('nodejs_heap_size_total_bytes')}; new ${await metric('nodejs_heap_space_size_used_bytes')}`,
)
if (process.env.SNAP) {
  const { readdirSync, statSync } = await import('node:fs')
  gw.kill('SIGWINCH')
  let last = -1
  for (;;) {
    await sleep(2000)
    const f = readdirSync(process.env.SNAP).find((n) => n.includes(`.${gw.pid}.`))
    if (!f) continue
    const s = statSync(`${process.env.SNAP}/${f}`).size
    if (s === last && s > 0) {
      console.log('snapshot', f)
      break
    }
    last = s
  }
  console.log(
    `after snapshot: rss ${rss().toFixed(1)} MiB; heap used ${await metric('nodejs_heap_size_used_bytes')}`,
  )
}
gw.kill('SIGKILL')
sandbox.kill('SIGKILL')
