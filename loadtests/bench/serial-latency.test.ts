import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { measureSerialLatency } from './serial-latency'

// The serial latency probe against a real local server: a target still shedding load after a
// saturating window is waited out as its Retry-After says, counted, and never timed.

let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

it('waits out 503 answers with Retry-After, counts them and times only the served requests', async () => {
  let shedLeft = 3
  let served = 0
  const url = await serve((_request, response) => {
    if (shedLeft > 0) {
      shedLeft--
      response.writeHead(503, { 'retry-after': '0' }).end()
    } else {
      served++
      response.end('{}')
    }
  })
  const latency = await measureSerialLatency(url, { method: 'GET', path: '/', headers: {} }, 20)
  expect(latency).toMatchObject({ requests: 20, shed: 3 })
  expect(served).toBe(20 + 20) // the 20 warm-up requests and the 20 timed
  expect(latency.p50).toBeGreaterThan(0)
})

it('fails on any other refusal, and on a target that never stops shedding', async () => {
  const refusing = await serve((_request, response) => response.writeHead(500).end())
  await expect(measureSerialLatency(refusing, { method: 'GET', path: '/', headers: {} }, 5)).rejects.toThrow(
    'status 500',
  )
  await new Promise<void>((resolve) => server!.close(() => resolve()))
  const shedding = await serve((_request, response) => response.writeHead(503, { 'retry-after': '0' }).end())
  await expect(measureSerialLatency(shedding, { method: 'GET', path: '/', headers: {} }, 5)).rejects.toThrow(
    /status 503 \(shed 31 times\)/,
  )
  server = undefined
})

it('times a proxy in pairs with its upstream called directly, and gives the median of the differences', async () => {
  // the "proxy" answers at least 3 ms later than its "upstream"; both count what they served
  let direct = 0
  const upstream = http.createServer((_request, response) => {
    direct++
    response.end('{}')
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  let proxied = 0
  const url = await serve((_request, response) => {
    proxied++
    setTimeout(() => response.end('{}'), 3)
  })
  try {
    const directUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    const latency = await measureSerialLatency(url, { method: 'GET', path: '/', headers: {} }, 40, directUrl)
    // one direct request for each of the target's, warm-up included
    expect([proxied, direct]).toEqual([40 + 40, 40 + 40])
    expect(latency.direct!.p50).toBeLessThan(latency.p50)
    expect(latency.overheadP50).toBeGreaterThanOrEqual(2)
    // without a direct URL, no pairs
    const alone = await measureSerialLatency(url, { method: 'GET', path: '/', headers: {} }, 5)
    expect(alone.direct).toBeUndefined()
    expect(alone.overheadP50).toBeUndefined()
  } finally {
    upstream.closeAllConnections()
    await new Promise<void>((resolve) => upstream.close(() => resolve()))
  }
})
