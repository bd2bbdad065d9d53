/**
 * Latency of one request at a time over one keep-alive connection, with sub-millisecond
 * resolution: autocannon's whole-millisecond percentiles cannot show a 0.5 ms proxy overhead.
 */
import http from 'node:http'
import type { RestRequest } from './rest-targets'

export interface SerialLatency {
  requests: number
  p50: number
  p90: number
  p99: number
}

function once(agent: http.Agent, url: URL, request: RestRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const outgoing = http.request(
      url,
      { method: request.method, agent, headers: request.headers },
      (response) => {
        response.resume()
        response.once('end', () =>
          response.statusCode && response.statusCode < 300
            ? resolve(performance.now() - started)
            : reject(new Error(`status ${response.statusCode}`)),
        )
      },
    )
    outgoing.once('error', reject)
    outgoing.end(request.body)
  })
}

export async function measureSerialLatency(
  baseUrl: string,
  request: RestRequest,
  requests: number,
): Promise<SerialLatency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const url = new URL(baseUrl + request.path)
  try {
    for (let i = 0; i < Math.min(50, requests); i++) await once(agent, url, request)
    const samples: number[] = []
    for (let i = 0; i < requests; i++) samples.push(await once(agent, url, request))
    samples.sort((a, b) => a - b)
    const at = (quantile: number): number =>
      samples[Math.min(samples.length - 1, Math.ceil(quantile * samples.length) - 1)]!
    return { requests, p50: at(0.5), p90: at(0.9), p99: at(0.99) }
  } finally {
    agent.destroy()
  }
}
