/**
 * Latency of one request at a time over one keep-alive connection, with sub-millisecond
 * resolution: a load generator's whole-millisecond percentiles cannot show a 0.5 ms proxy overhead.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import http from 'node:http'
import { ascending, percentile } from './percentiles'
import type { RestRequest } from './rest-targets'

export interface SerialLatency {
  requests: number
  /** 503 answers with Retry-After (the target shedding load) waited out and sent again, not timed */
  shed: number
  p50: number
  p90: number
  p99: number
}

/** A timed answer, or how many seconds a shedding target asked to wait. */
type Once = { ms: number } | { retryAfterSeconds: number }

function once(agent: http.Agent, url: URL, request: RestRequest): Promise<Once> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const outgoing = http.request(
      url,
      { method: request.method, agent, headers: request.headers },
      (response) => {
        response.resume()
        response.once('end', () => {
          const retryAfter = Number(response.headers['retry-after'])
          if (response.statusCode && response.statusCode < 300) resolve({ ms: performance.now() - started })
          else if (response.statusCode === 503 && retryAfter >= 0) resolve({ retryAfterSeconds: retryAfter })
          else reject(new Error(`status ${response.statusCode}`))
        })
      },
    )
    outgoing.once('error', reject)
    outgoing.end(request.body)
  })
}

// On a busy machine the gateway may still be shedding load (503 with Retry-After) just after a
// saturating window; a client waits as told and asks again, and the count is reported.
const MAX_SHED = 30

export async function measureSerialLatency(
  baseUrl: string,
  request: RestRequest,
  requests: number,
): Promise<SerialLatency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const url = new URL(baseUrl + request.path)
  let shed = 0
  const timed = async (): Promise<number> => {
    for (;;) {
      const answer = await once(agent, url, request)
      if ('ms' in answer) return answer.ms
      if (++shed > MAX_SHED) throw new Error(`status 503 (shed ${shed} times)`)
      await sleep(Math.max(answer.retryAfterSeconds, 0.1) * 1000)
    }
  }
  try {
    for (let i = 0; i < Math.min(50, requests); i++) await timed()
    const samples: number[] = []
    for (let i = 0; i < requests; i++) samples.push(await timed())
    const sorted = ascending(samples)
    const at = (quantile: number): number => percentile(sorted, quantile)
    return { requests, shed, p50: at(0.5), p90: at(0.9), p99: at(0.99) }
  } finally {
    agent.destroy()
  }
}
