/**
 * Platform first, measured: does undici's RetryAgent do what the gateway's own GET retry loop does,
 * at what cost; does lru-cache's fetchMethod/allowStale serve stale answers the way the response
 * cache must. `npx tsx test/api/platform-check.ts` in gateway/ prints the figures docs/adr/0009 cites.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { LRUCache } from 'lru-cache'
import { Pool, RetryAgent, type Dispatcher } from 'undici'

interface Answer {
  status: number
  body: Buffer
}

/** The gateway's way of collecting an answer (gateway/src/upstream/upstream.ts CollectingHandler). */
function dispatch(dispatcher: Dispatcher, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let status = 0
    const chunks: Buffer[] = []
    dispatcher.dispatch(
      { method: 'GET', path, headers: {} },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk)
        },
        onResponseEnd() {
          resolve({ status, body: Buffer.concat(chunks) })
        },
        onResponseError(_controller, error) {
          reject(error)
        },
      },
    )
  })
}

/** The gateway's loop: retry a GET on 503 and on connect/reset failures, 30 ms doubling. */
async function ownRetry(pool: Pool, path: string, retries: number): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await dispatch(pool, path)
      if (answer.status === 503 && attempt < retries) {
        await sleep(30 * 2 ** attempt)
        continue
      }
      return answer
    } catch (error) {
      if (
        attempt < retries &&
        ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes((error as { code: string }).code)
      ) {
        await sleep(30 * 2 ** attempt)
        continue
      }
      throw error
    }
  }
}

function retryAgent(pool: Pool, retries: number): RetryAgent {
  return new RetryAgent(pool, {
    maxRetries: retries,
    minTimeout: 30,
    timeoutFactor: 2,
    maxTimeout: 120,
    methods: ['GET'],
    statusCodes: [503],
    errorCodes: ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'],
    throwOnError: false,
  })
}

async function throughput(label: string, call: () => Promise<Answer>, requests: number): Promise<void> {
  for (let index = 0; index < 2000; index++) await call()
  const cpu = process.cpuUsage()
  const start = performance.now()
  let next = 0
  const worker = async () => {
    while (next++ < requests) await call()
  }
  await Promise.all(Array.from({ length: 32 }, worker))
  const seconds = (performance.now() - start) / 1000
  const used = process.cpuUsage(cpu)
  console.log(
    `${label}: ${Math.round(requests / seconds)} req/s, ${((used.user + used.system) / requests).toFixed(1)} µs CPU a request`,
  )
}

async function retries(): Promise<void> {
  let hits = 0
  let failFirst = 0
  const server: Server = createServer((request, response) => {
    hits++
    if (request.url === '/always503') response.writeHead(503).end('busy')
    else if (request.url === '/retryAfter') response.writeHead(503, { 'retry-after': '30' }).end('busy')
    else if (failFirst-- > 0) response.writeHead(503).end('busy')
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"code":200,"data":[1,2,3]}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const pool = new Pool(origin, { connections: 64 })
  const agent = retryAgent(pool, 2)
  await throughput('success path, own loop  ', () => ownRetry(pool, '/ok', 2), 40_000)
  await throughput('success path, RetryAgent', () => dispatch(agent, '/ok'), 40_000)
  await throughput('success path, own loop  ', () => ownRetry(pool, '/ok', 2), 40_000)
  await throughput('success path, RetryAgent', () => dispatch(agent, '/ok'), 40_000)

  for (const [label, call] of [
    ['own loop  ', (path: string) => ownRetry(pool, path, 2)],
    ['RetryAgent', (path: string) => dispatch(agent, path)],
  ] as const) {
    hits = 0
    failFirst = 2
    const recovered = await call('/ok')
    const recoveredHits = hits
    hits = 0
    const exhausted = await call('/always503')
    const exhaustedHits = hits
    hits = 0
    const started = performance.now()
    const waited = await call('/retryAfter')
    console.log(
      `${label}: 503,503,200 -> ${recovered.status} ${recovered.body} after ${recoveredHits} attempts; 503 always -> ${exhausted.status} ${exhausted.body} after ${exhaustedHits}; 503 with Retry-After: 30 -> ${waited.status} after ${hits} attempts in ${Math.round(performance.now() - started)} ms`,
    )
  }
  // nothing listening: both give up with the connection's own error code, the gateway's 502 kind
  const gone = createServer()
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
  const gonePort = (gone.address() as AddressInfo).port
  await new Promise((resolve) => gone.close(resolve))
  const closed = new Pool(`http://127.0.0.1:${gonePort}`, { connections: 4 })
  for (const [label, call] of [
    ['own loop  ', () => ownRetry(closed, '/', 2)],
    ['RetryAgent', () => dispatch(retryAgent(closed, 2), '/')],
  ] as const) {
    const error = await call().then(
      () => null,
      (failure: { code?: string }) => failure,
    )
    console.log(`${label}: nothing listening -> ${error?.code ?? 'an answer'}`)
  }
  await closed.close()
  await agent.close()
  server.close()
}

/**
 * The response cache's rule: fresh for freshMs, then served stale (one refresh behind it) until
 * freshMs + staleMs, then never. lru-cache with ttl = freshMs and allowStale: how old an answer it serves.
 */
async function staleWindow(): Promise<void> {
  const freshMs = 20
  const staleMs = 40
  let version = 0
  let fail = false
  const cache = new LRUCache<string, string>({
    max: 10,
    ttl: freshMs,
    allowStale: true,
    noDeleteOnFetchRejection: true,
    allowStaleOnFetchRejection: true,
    fetchMethod: async () => {
      if (fail) throw new Error('upstream down')
      return `v${++version}`
    },
  })
  await cache.fetch('coins')
  fail = true
  // the answer's age is what is checked: past the whole window, which only time passing makes it
  await sleep(freshMs + staleMs + 200)
  const served = await cache.fetch('coins')
  const again = await cache.fetch('coins')
  console.log(
    `lru-cache, upstream down, ${freshMs + staleMs + 200} ms after the answer (window ${freshMs + staleMs} ms): served ${served ?? 'nothing'}, then ${again ?? 'nothing'}`,
  )
  // a non-storable answer (an error envelope) must reach the caller but not the cache
  fail = false
  const status: LRUCache.Status<string, string> = {}
  const uncached = new LRUCache<string, string>({
    max: 10,
    ttl: freshMs,
    fetchMethod: async () => undefined,
  })
  const value = await uncached.fetch('coins', { status })
  console.log(
    `lru-cache, fetchMethod answering undefined (not storable): the caller gets ${value}, fetch status ${status.fetch}`,
  )
}

await retries()
await staleWindow()
