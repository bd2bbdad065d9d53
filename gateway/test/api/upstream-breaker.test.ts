import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { Upstream, UpstreamError, type UpstreamRequest } from '../../src/upstream/upstream'
import { createMetrics } from '../../src/plugins/app/metrics'
import { waitFor } from '../helpers'

// The upstream's circuit breaker against a real server that goes away and comes back on its port:
// one refused connection is a blip that changes nothing for the calls after it; only failures in a
// row (calls and the probe's confirmations) make the gateway refuse calls at once.

const FAILURES = 3
const call: UpstreamRequest = { method: 'GET', path: '/ping', headers: {}, route: '/ping' }

function answering(): Server {
  return createServer((request, response) => {
    request.resume()
    response.end('{"code":200,"msg":"ok","data":null}')
  })
}

const listen = (server: Server, port = 0): Promise<number> =>
  new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )

/** Stops listening and drops its open connections: the next connection to its port is refused. */
const stop = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/** The call's failure kind, or its status when answered. */
const outcome = (upstream: Upstream): Promise<string | number> =>
  upstream.request(call).then(
    (answer) => answer.status,
    (error: unknown) => (error instanceof UpstreamError ? error.kind : String(error)),
  )

describe("the upstream's circuit breaker", () => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function upstreamOn(server: Server): Promise<{ upstream: Upstream; port: number }> {
    const port = await listen(server)
    const upstream = new Upstream(
      {
        url: `http://127.0.0.1:${port}`,
        connectTimeoutMs: 5000,
        responseTimeoutMs: 5000,
        getRetries: 0,
        breakerFailures: FAILURES,
      },
      createMetrics('breaker-test'),
    )
    cleanups.push(() => upstream.close())
    await waitFor(async () => (await outcome(upstream)) === 200, 'the upstream answering')
    return { upstream, port }
  }

  it('stays closed after one refused connection: the next call goes out and is answered', async () => {
    const server = answering()
    const { upstream, port } = await upstreamOn(server)

    await stop(server)
    expect(await outcome(upstream)).toBe('connect')
    expect(upstream.reachable).toBe(true)

    const back = answering()
    cleanups.push(() => stop(back))
    await listen(back, port)
    expect(await outcome(upstream)).toBe(200)
    expect(upstream.reachable).toBe(true)
  })

  it('opens after failures in a row, then refuses calls at once until the probe finds the upstream again', async () => {
    const server = answering()
    const { upstream, port } = await upstreamOn(server)

    await stop(server)
    // the first refusal leaves it closed; the probe confirms within a second, and again, until it opens
    expect(await outcome(upstream)).toBe('connect')
    await waitFor(() => !upstream.reachable, 'the circuit open after failures in a row')
    expect(upstream.unreachableReason).toBe('upstream unreachable')
    expect(await outcome(upstream)).toBe('open')

    const back = answering()
    cleanups.push(() => stop(back))
    await listen(back, port)
    await waitFor(() => upstream.reachable, 'the probe finding the upstream again')
    expect(await outcome(upstream)).toBe(200)
  })
})
