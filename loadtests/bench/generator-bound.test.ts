import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { cpuPercent, generatorBound, sameRoundRatios } from './generator-bound'
import { ensureWrk, runWrk } from './wrk'
import { restRatio } from './same-round'
import { combineRestWindows, measureRestWindow } from './rest-rounds'
import type { RestTarget } from './rest-targets'
import type { RestWindow } from './types'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
})

async function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('the generator-bound rule', () => {
  it('flags a generator over 70% of its core, and at capacity a target under 90% of its own', () => {
    expect(
      generatorBound({ generatorCpuPercent: 40, targetCpuPercent: 97, atCapacity: true }),
    ).toBeUndefined()
    expect(generatorBound({ generatorCpuPercent: 85, targetCpuPercent: 97, atCapacity: true })).toBe(
      'generator at 85% of its core',
    )
    expect(generatorBound({ generatorCpuPercent: 40, targetCpuPercent: 60, atCapacity: true })).toBe(
      'target at 60% of its core at capacity',
    )
    // below capacity a target with room to spare is what a window should see
    expect(
      generatorBound({ generatorCpuPercent: 40, targetCpuPercent: 60, atCapacity: false }),
    ).toBeUndefined()
    expect(cpuPercent(1_500_000, 2)).toBe(75)
  })

  it('takes ratios only within a round, leaving out rounds either side could not use', () => {
    const ratio = sameRoundRatios([100, undefined, 90, 120], [100, 80, 100, undefined])
    expect(ratio).toMatchObject({ ratios: [1, 0.9], low: 0.9, high: 1 })
    expect(sameRoundRatios([undefined], [1])).toBeUndefined()
  })
})

describe('wrk as the REST generator', () => {
  it('is installed (apt-get install -y wrk; `npm run bench` installs it unless --no-install)', () => {
    expect(ensureWrk(false)).toEqual({ ok: true })
  })

  it('sends the request as given and reads its own CPU and the target’s', async () => {
    const seen: Array<{ method?: string; type?: string; body: string }> = []
    const url = await listen((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        if (seen.length < 3)
          seen.push({ method: request.method, type: request.headers['content-type'], body })
        response.end('{"code":200}')
      })
    })
    const run = await runWrk({
      url,
      request: {
        method: 'POST',
        path: '/api/period/list',
        body: '{"symbol":"btcusdt"}',
        headers: { 'content-type': 'application/json' },
      },
      connections: 2,
      seconds: 1,
      targetPid: process.pid,
    })
    expect(seen[0]).toEqual({ method: 'POST', type: 'application/json', body: '{"symbol":"btcusdt"}' })
    expect(run.requests).toBeGreaterThan(0)
    expect(run.non2xx).toBe(0)
    expect(run.generatorCpuMicros).toBeGreaterThan(0)
    expect(run.targetCpuMicros).toBeGreaterThan(0)
  })

  it('flags a window whose target was never the limit, and leaves it out of the ratio', async () => {
    // The target answers after a timer: it idles, so whatever set the rate, it was not the target.
    const url = await listen((_request, response) => setTimeout(() => response.end('{}'), 20))
    const run = await runWrk({
      url,
      request: { method: 'GET', path: '/' },
      connections: 4,
      seconds: 1,
      targetPid: process.pid,
    })
    const bound = generatorBound({
      generatorCpuPercent: cpuPercent(run.generatorCpuMicros, run.cpuSeconds),
      targetCpuPercent: cpuPercent(run.targetCpuMicros, run.cpuSeconds),
      atCapacity: true,
    })
    expect(bound).toMatch(/^target at \d+% of its core at capacity$/)

    const window = (requests: number, flag?: string): RestWindow => ({
      pinned: true,
      seconds: 1,
      requests,
      non2xx: 0,
      errors: 0,
      cpuMicros: 1000,
      latencyMs: { p50: 1, p90: 1, p99: 1, p999: 1, max: 1 },
      ...(flag ? { generatorBound: flag } : {}),
    })
    const a = combineRestWindows({ target: 'a', ok: false }, [window(run.requests, bound), window(900)])
    const b = combineRestWindows({ target: 'b', ok: false }, [window(1000), window(1000)])
    expect(a.rounds![0]!.generatorBound).toBe(bound)
    expect(restRatio(a, b)).toMatchObject({ ratios: [0.9] })
  })
})

describe('a REST window on a starved target', () => {
  const plan = { warmupSeconds: 1, seconds: 1, connections: 2, serialRequests: 0, sampleAnswer: false }
  const ctx = {
    runId: 'test',
    serverCpus: undefined,
    installMissing: false,
    sandbox: () => Promise.reject(new Error('no sandbox')),
  }
  /** A target on `url` that is started and stopped by the window. */
  const targetAt = (url: string): RestTarget => ({
    name: 'starved',
    start: async () => ({ url, pinned: false, request: { method: 'GET', path: '/' }, stop: async () => {} }),
  })

  it('runs again, twice as long, until the target answers, and measures after that', async () => {
    // Nothing is answered until a run has ended with its requests unanswered (its connection closed):
    // as a starved target's first answers come after a one-second run.
    let released = false
    const url = await listen((request, response) => {
      if (released) return void response.end('{}')
      request.socket.once('close', () => (released = true))
    })
    const log: string[] = []
    const window = await measureRestWindow(targetAt(url), ctx, plan, (line) => log.push(line))
    expect(log.filter((line) => line.includes('completed no request'))).toEqual([
      expect.stringMatching(/^ {2}starved: the warm-up completed no request in [\d.]+ s, run again for 2 s$/),
    ])
    expect(window).toMatchObject({ non2xx: 0, errors: 0 })
    expect((window as RestWindow).requests).toBeGreaterThan(0)
  })

  it('fails the row of a target that never answers, after three longer runs, without measuring it again', async () => {
    const url = await listen(() => {})
    const log: string[] = []
    const window = await measureRestWindow(targetAt(url), ctx, plan, (line) => log.push(line))
    expect(
      log.filter((line) => line.includes('completed no request')).map((line) => line.split(', ')[1]),
    ).toEqual(['run again for 2 s', 'run again for 4 s', 'run again for 8 s'])
    const row = combineRestWindows({ target: 'starved', ok: false }, [window as RestWindow])
    expect(row).toMatchObject({ ok: false, error: '0 requests, 0 not 2xx, 0 errors' })
  }, 60_000)

  it('begins a condition once the target is warm and ends it after the window, before the target stops', async () => {
    let answered = 0
    const url = await listen((_request, response) => {
      answered++
      response.end('{}')
    })
    const events: string[] = []
    let atBegin = 0
    const target: RestTarget = {
      name: 'warm',
      start: async () => ({
        url,
        pinned: false,
        request: { method: 'GET', path: '/' },
        stop: async () => void events.push('stopped'),
      }),
    }
    const during = () => {
      atBegin = answered
      events.push('begun')
      return async () => void events.push('ended')
    }
    const window = await measureRestWindow(
      target,
      ctx,
      { ...plan, serialRequests: 5, during },
      () => undefined,
    )
    expect(events).toEqual(['begun', 'ended', 'stopped'])
    // the warm-up ran before it, the measured run and the one-at-a-time requests within it
    expect(atBegin).toBeGreaterThan(0)
    const measured = (window as RestWindow).requests
    expect(measured).toBeGreaterThan(0)
    expect(answered - atBegin).toBeGreaterThanOrEqual(measured + 5)
  })
})
