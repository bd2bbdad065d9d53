import { execFile, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { CALLS } from '@tradegate/shared'
import { emptyWebDist, rawRequest, waitFor } from './helpers'
import { REDIS_URL, deleteKeys, uniquePrefix } from './live/helpers'
import { freePort } from '../../scripts/free-port.mjs'
import { spawnOwned } from './support/owned-processes'

// The built gateway as a process: a bad setting stops the start, SIGTERM drains and exits in time, and
// the bundle, whose build swaps some dependencies for Node's own or for ones loaded on first use
// (build.mjs), compresses, serves the client, exports its metrics and reaches Redis as the sources do.

const gatewayRoot = fileURLToPath(new URL('..', import.meta.url))
const buildDir = `${gatewayRoot}dist/test-${randomBytes(4).toString('hex')}`
const bundle = `${buildDir}/main.js`
const SLOW_MS = 1500
const HUNG_PATH = CALLS.userInfo.path
/** an answer past the compression threshold, for the call that gets it */
const LARGE_PATH = CALLS.periodList.path
const LARGE_ANSWER = JSON.stringify({
  code: 200,
  msg: 'ok',
  data: Array.from({ length: 60 }, (_, id) => ({
    id,
    symbol: 'btcusdt',
    seconds: 30 * (id + 1),
    rate: '0.1',
  })),
})

/**
 * The large answer's content type by the symbol asked for: types @fastify/compress's own pattern does not
 * know, which it looks up in mime-db (loaded on first use in the bundle, build.mjs)
 */
const LARGE_ANSWER_TYPES: Record<string, string> = {
  ethusdt: 'application/javascript',
  xrpusdt: 'image/png',
}

let slowUpstream: Server
/** the paths the slow upstream has been asked for, in order */
const upstreamPaths: string[] = []
let upstreamUrl = ''
const webDist = emptyWebDist()

function startGatewayProcess(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = ''
  const child = spawnOwned(process.execPath, [bundle], {
    cwd: gatewayRoot,
    env: { PATH: process.env.PATH, REDIS_URL: '', LOG_LEVEL: 'info', WEB_DIST: webDist, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return { child, output: () => output }
}

interface ListeningGateway {
  child: ChildProcess
  port: number
  base: string
  output(): string
}

/**
 * The built gateway listening on a free port in front of the slow upstream, handed to `run`; its
 * output is added to any failure, and it is killed if `run` leaves it running.
 */
async function withGateway(
  env: Record<string, string>,
  run: (gateway: ListeningGateway) => Promise<void>,
): Promise<void> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const { child, output } = startGatewayProcess({
    PORT: String(port),
    HOST: '127.0.0.1',
    UPSTREAM_URL: upstreamUrl,
    ...env,
  })
  try {
    await waitFor(
      async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200,
      'gateway to listen',
      60_000,
    )
    await run({ child, port, base, output })
  } catch (error) {
    throw new Error(`${String(error)}\n--- gateway output ---\n${output()}`, { cause: error })
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once('exit', (code) => resolve(code))
  })

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['build.mjs', bundle], { cwd: gatewayRoot })
  // answers every REST call after a delay, so a request is still in flight when SIGTERM arrives
  slowUpstream = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://upstream').pathname
    upstreamPaths.push(path)
    // a hung upstream: this call is never answered
    if (path === HUNG_PATH) return void request.resume()
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () =>
      setTimeout(() => {
        const symbol = path === LARGE_PATH ? (JSON.parse(body) as { symbol: string }).symbol : ''
        response.writeHead(200, { 'content-type': LARGE_ANSWER_TYPES[symbol] ?? 'application/json' })
        response.end(path === LARGE_PATH ? LARGE_ANSWER : '{"code":200,"msg":"ok","data":[]}')
      }, SLOW_MS),
    )
  })
  await new Promise<void>((resolve) => slowUpstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(slowUpstream.address() as AddressInfo).port}`
})

const redisPrefix = uniquePrefix('main-bundle')

afterAll(async () => {
  await deleteKeys(redisPrefix)
  slowUpstream?.closeAllConnections()
  await new Promise((resolve) => slowUpstream?.close(resolve))
  rmSync(buildDir, { recursive: true, force: true })
  rmSync(webDist, { recursive: true, force: true })
})

describe('gateway process', () => {
  it('refuses to start on a bad setting and names it', async () => {
    const { child, output } = startGatewayProcess({ PORT: 'eighty', UPSTREAM_URL: upstreamUrl })
    expect(await exited(child)).toBe(1)
    expect(output()).toContain('PORT')
  })

  it('on SIGTERM fails readiness, still answers requests (closing their connections), refuses new sockets, finishes in-flight ones, closes sockets with 1001 and exits', async () => {
    await withGateway(
      { SHUTDOWN_DRAIN_MS: '600', SHUTDOWN_TIMEOUT_MS: '8000' },
      async ({ child, port, base }) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/process-test-1`)
        await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
        const socketClosed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))

        const inFlight = fetch(base + CALLS.assetBalance.path)
        await waitFor(
          () => upstreamPaths.includes(CALLS.assetBalance.path),
          'the request to reach the upstream',
        )
        const signalledAt = Date.now()
        child.kill('SIGTERM')

        let ready = await fetch(`${base}/readyz`)
        await waitFor(async () => (ready = await fetch(`${base}/readyz`)).status === 503, 'readiness to fail')
        expect(await ready.json()).toMatchObject({ reasons: expect.arrayContaining(['shutting down']) })
        // a request the load balancer sends before it sees the readiness is answered (a refused POST
        // could not be retried), and its connection closed so the next one goes elsewhere
        const answering = fetch(base + CALLS.getCoinList.path)
        const refusedSocket = new WebSocket(`ws://127.0.0.1:${port}/ws/process-test-2`)
        const refusedStatus = await new Promise<number>((resolve) => {
          refusedSocket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
          refusedSocket.once('open', () => resolve(101))
          refusedSocket.once('error', () => resolve(-1))
        })
        expect(refusedStatus).toBe(503)
        const answered = await answering
        expect(answered.status).toBe(200)
        expect(answered.headers.get('connection')).toBe('close')
        await answered.arrayBuffer()

        const finished = await inFlight
        expect(finished.status).toBe(200)
        expect(await finished.json()).toMatchObject({ code: 200 })
        expect(await socketClosed).toBe(1001)
        expect(await exited(child)).toBe(0)
        expect(Date.now() - signalledAt).toBeLessThan(10_000)
      },
    )
  })

  it('on SIGTERM answers requests hung on the upstream with 503 and Retry-After before the grace ends, then exits', async () => {
    // the hung call outlasts the grace: only the shutdown can answer it
    const env = { SHUTDOWN_DRAIN_MS: '200', SHUTDOWN_TIMEOUT_MS: '4000', UPSTREAM_TIMEOUT_MS: '60000' }
    await withGateway(env, async ({ child, base, output }) => {
      const before = upstreamPaths.filter((path) => path === HUNG_PATH).length
      const hung = [1, 2].map(() =>
        fetch(base + HUNG_PATH, { headers: { satoken: 'hung-session-token-1' } }).then(async (response) => ({
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: (await response.json()) as unknown,
          at: Date.now(),
        })),
      )
      await waitFor(
        () => upstreamPaths.filter((path) => path === HUNG_PATH).length === before + 2,
        'both requests to reach the upstream',
      )
      const exit = exited(child)
      let exitedAt = 0
      void exit.then(() => (exitedAt = Date.now()))
      child.kill('SIGTERM')
      for (const answer of await Promise.all(hung)) {
        expect(answer.status).toBe(503)
        expect(Number(answer.retryAfter)).toBeGreaterThan(0)
        expect(answer.body).toEqual({ code: 503, msg: 'serviceUnavailable' })
        // answered while the process was still there, not reset by its exit
        expect(exitedAt === 0 || answer.at <= exitedAt).toBe(true)
      }
      expect(await exit).toBe(0)
      expect(output()).toContain('shutdown_answered')
    })
  })

  it('compresses a large answer as the client accepts and its type allows, serves the built client and exports its metrics', async () => {
    const builtWeb = emptyWebDist()
    const page = '<!doctype html><title>TradeGate</title>'
    writeFileSync(join(builtWeb, 'index.html'), page)
    try {
      await withGateway({ WEB_DIST: builtWeb }, async ({ base }) => {
        for (const [encoding, decode] of [
          ['br', brotliDecompressSync],
          ['gzip', gunzipSync],
        ] as const) {
          const answer = await rawRequest(base + LARGE_PATH, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'accept-encoding': encoding },
            body: '{"symbol":"btcusdt"}',
          })
          expect(answer.status).toBe(200)
          expect(answer.headers['content-encoding']).toBe(encoding)
          expect(decode(answer.body).toString()).toBe(LARGE_ANSWER)
        }
        // a type mime-db calls compressible is compressed, one it does not call so goes out as it came
        for (const [symbol, encoded] of [
          ['ethusdt', 'br'],
          ['xrpusdt', undefined],
        ] as const) {
          const answer = await rawRequest(base + LARGE_PATH, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'accept-encoding': 'br' },
            body: JSON.stringify({ symbol }),
          })
          expect(answer.headers['content-type']).toBe(LARGE_ANSWER_TYPES[symbol])
          expect(answer.headers['content-encoding']).toBe(encoded)
          const bytes = encoded ? brotliDecompressSync(answer.body) : answer.body
          expect(bytes.toString()).toBe(LARGE_ANSWER)
        }
        // a client route falls back to the page
        const served = await fetch(`${base}/markets`)
        expect(served.status).toBe(200)
        expect(await served.text()).toBe(page)
        const metrics = await (await fetch(`${base}/metrics`)).text()
        expect(metrics).toMatch(/^process_cpu_seconds_total\{[^}]*\} \d/m)
      })
    } finally {
      rmSync(builtWeb, { recursive: true, force: true })
    }
  })

  it("reaches Redis through the ioredis file built beside it, with ioredis's own log under DEBUG, and the image copies every file the build writes", async () => {
    for (const debug of ['', 'ioredis:redis']) {
      await withGateway({ REDIS_URL, REDIS_PREFIX: redisPrefix, DEBUG: debug }, async ({ base, output }) => {
        await waitFor(
          async () => /^gateway_redis_up(\{[^}]*\})? 1$/m.test(await (await fetch(`${base}/metrics`)).text()),
          'the gateway to reach Redis',
          30_000,
        )
        if (debug) expect(output()).toMatch(/ioredis:redis status\[127\.0\.0\.1:\d+\]: \w+ -> ready/)
        else expect(output()).not.toContain('ioredis:')
      })
    }
    const built = readdirSync(buildDir).filter((name) => !name.endsWith('.map'))
    expect(built).toEqual(expect.arrayContaining(['main.js', 'ioredis.cjs']))
    const dockerfile = readFileSync(join(gatewayRoot, '..', 'docker', 'Dockerfile'), 'utf8')
    const copied = /^COPY --from=build (.*\/gateway\/dist\/main\.js .*) gateway\/dist\/$/m.exec(
      dockerfile,
    )?.[1]
    for (const name of built) expect(copied?.split(' ')).toContain(`/app/gateway/dist/${name}`)
  })

  it('builds with --if-stale only when a built file is missing or older than its sources', async () => {
    const buildIfStale = async () =>
      (await promisify(execFile)(process.execPath, ['build.mjs', bundle, '--if-stale'], { cwd: gatewayRoot }))
        .stdout
    const ioredisFile = join(buildDir, 'ioredis.cjs')
    expect(await buildIfStale()).toBe(`gateway: ${bundle} is current\n`)
    utimesSync(bundle, 0, 0)
    expect(await buildIfStale()).toContain(`gateway: built ${bundle}`)
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(0)
    rmSync(ioredisFile)
    expect(await buildIfStale()).toContain(`ioredis: built ${ioredisFile}`)
    expect(await buildIfStale()).toBe(`gateway: ${bundle} is current\n`)
  })
})
