/**
 * Latency of one request at a time over one keep-alive connection, with sub-millisecond
 * resolution: a load generator's whole-millisecond percentiles cannot show a 0.5 ms proxy overhead.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import http from 'node:http'
import { ascending, median, percentile } from './percentiles'
import type { RestRequest } from './rest-targets'

export interface SerialLatency {
  requests: number
  /** 503 answers with Retry-After (the target shedding load) waited out and sent again, not timed */
  shed: number
  p50: number
  p90: number
  p99: number
  /** With a direct URL: the target's upstream called directly, one request between each two of the target's. */
  direct?: { p50: number; p90: number; p99: number }
  /** With a direct URL: the median of each request's time less its paired direct request's. */
  overheadP50?: number
  /** Combined from several rounds (each figure above their median): each round's overheadP50, in order. */
  roundsOverheadP50?: number[]
}

/**
 * Several rounds' one-at-a-time figures as one: requests and sheds summed, each figure the median of
 * the rounds'. One round's figure moves with the moment (0.12 to 0.66 ms over five runs), so a row that
 * took the first round's alone was one sample.
 */
export function combineSerialLatency(rounds: readonly SerialLatency[]): SerialLatency | undefined {
  if (rounds.length === 0) return undefined
  const mid = (values: Array<number | undefined>): number | undefined =>
    values.every((value) => value !== undefined) ? median(values as number[]) : undefined
  const overheads = rounds.map((round) => round.overheadP50)
  const direct = rounds.every((round) => round.direct)
    ? {
        p50: median(rounds.map((round) => round.direct!.p50)),
        p90: median(rounds.map((round) => round.direct!.p90)),
        p99: median(rounds.map((round) => round.direct!.p99)),
      }
    : undefined
  const overheadP50 = mid(overheads)
  return {
    requests: rounds.reduce((sum, round) => sum + round.requests, 0),
    shed: rounds.reduce((sum, round) => sum + round.shed, 0),
    p50: median(rounds.map((round) => round.p50)),
    p90: median(rounds.map((round) => round.p90)),
    p99: median(rounds.map((round) => round.p99)),
    ...(direct ? { direct } : {}),
    ...(overheadP50 !== undefined ? { overheadP50, roundsOverheadP50: overheads as number[] } : {}),
  }
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

/**
 * `requests` timed one at a time after 50 untimed. Given `directUrl` (what the target forwards to), each
 * request to the target is paired with one to the direct URL, the two in turn (the order swapped every
 * pair), and the overhead is the median of the pairs' differences: one request at a time on a virtual
 * machine takes from 0.1 to 0.5 ms as its cores idle or not, so a direct figure measured at another
 * moment gave overheads from −0.17 to 0.73 ms in one run.
 */
export async function measureSerialLatency(
  baseUrl: string,
  request: RestRequest,
  requests: number,
  directUrl?: string,
): Promise<SerialLatency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const url = new URL(baseUrl + request.path)
  const direct = directUrl === undefined ? undefined : new URL(directUrl + request.path)
  let shed = 0
  const timed = async (to: URL, through: http.Agent): Promise<number> => {
    for (;;) {
      const answer = await once(through, to, request)
      if ('ms' in answer) return answer.ms
      if (++shed > MAX_SHED) throw new Error(`status 503 (shed ${shed} times)`)
      await sleep(Math.max(answer.retryAfterSeconds, 0.1) * 1000)
    }
  }
  const summary = (samples: number[]) => {
    const sorted = ascending(samples)
    return { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99) }
  }
  try {
    for (let i = 0; i < Math.min(50, requests); i++) {
      await timed(url, agent)
      if (direct) await timed(direct, directAgent)
    }
    const samples: number[] = []
    const directSamples: number[] = []
    const differences: number[] = []
    for (let i = 0; i < requests; i++) {
      if (!direct) {
        samples.push(await timed(url, agent))
        continue
      }
      const targetFirst = i % 2 === 0
      const directFirst = targetFirst ? undefined : await timed(direct, directAgent)
      const target = await timed(url, agent)
      const directMs = directFirst ?? (await timed(direct, directAgent))
      samples.push(target)
      directSamples.push(directMs)
      differences.push(target - directMs)
    }
    return {
      requests,
      shed,
      ...summary(samples),
      ...(direct ? { direct: summary(directSamples), overheadP50: summary(differences).p50 } : {}),
    }
  } finally {
    agent.destroy()
    directAgent.destroy()
  }
}
