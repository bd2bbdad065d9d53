/**
 * The signed-in uploads row: /healthz p99 while 10 connections, each a signed-in user of the sandbox,
 * send 5 MiB identity photos one after another, against its quiet value on the same gateway just
 * before; and the gateway's RSS before, at its peak, and a minute after the last upload.
 *
 * "Before" and "after" are each read once the gateway has settled, not at a fixed moment: after a full
 * collection (prom-client's gc histogram on /metrics) since start, or since the burst's end, and with
 * the RSS steady across consecutive readings. An idle gateway's old space is not collected for tens of
 * seconds after start, so a fixed early reading counted its start-up garbage as the baseline's.
 *
 * The gateway runs with its default in-flight bound per instance and the per-address bounds lifted
 * (every connection comes from 127.0.0.1, where ten users would come from ten addresses), so the
 * instance's bound is what holds the load; refusals (503) are counted beside the uploads answered.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { Client } from 'undici'
import { CALLS } from '@tradegate/shared'
import { registerOnSandbox } from '../../gateway/test/support/sandbox-accounts'
import { probeHealth, took, UPLOAD_CONTENT_TYPE, uploadBody } from './hostile-bodies'
import { latencySummary } from './percentiles'
import { errorText } from './child-process'
import { readRssBytes } from './proc-stats'
import {
  PROXIED_FLOOR,
  restTarget,
  startGatewayOverSandbox,
  uncachedRequest,
  withSandbox,
  type Cores,
  type RestTargetContext,
  type RunningRestTarget,
} from './rest-targets'
import type { BenchOptions, BenchResult, SignedInUploadsReport } from './types'

const CONNECTIONS = 10
const RSS_SAMPLE_MS = 100
/** settled: this many readings in a row, a second apart, within STEADY_SHARE of each other */
const STEADY_READINGS = 5
const STEADY_SHARE = 0.02
const READING_MS = 1000

/** What the gateway runs with for this row, on top of the bench's usual settings. */
const SIGNED_IN_UPLOAD_ENV = {
  UPLOAD_RATE_PER_MINUTE: '1000000',
  UPLOAD_RATE_PER_USER_PER_MINUTE: '1000000',
  UPLOADS_IN_FLIGHT_PER_CLIENT: String(CONNECTIONS),
}

/** Full collections the gateway has run, from its /metrics; null when it does not say. */
async function majorCollections(gatewayUrl: string): Promise<number | null> {
  try {
    const response = await fetch(`${gatewayUrl}/metrics`)
    const text = await response.text()
    if (!response.ok || !text.includes('nodejs_gc_duration_seconds')) return null
    // the series appears with the first full collection
    const match = /^nodejs_gc_duration_seconds_count\{[^}]*\bkind="major"[^}]*\} (\d+)/m.exec(text)
    return match ? Number(match[1]) : 0
  } catch {
    return null
  }
}

export interface SettledRss {
  mb: number
  /** false when the deadline came first: the reading is then the deadline's */
  settled: boolean
  /** when it was read, on performance.now()'s clock */
  at: number
}

/**
 * The RSS once the gateway has run more than `majorsAbove` full collections (any number, when /metrics
 * does not say) and its RSS has stayed steady over the last readings, not before `notBefore`; at
 * `deadline` whatever it reads then.
 */
async function settledRss(options: {
  gatewayUrl: string
  rss: () => number
  majorsAbove: number | null
  notBefore: number
  deadline: number
}): Promise<SettledRss> {
  const readings: number[] = []
  for (;;) {
    const reading = options.rss()
    readings.push(reading)
    if (readings.length > STEADY_READINGS) readings.shift()
    const now = performance.now()
    const majors = await majorCollections(options.gatewayUrl)
    const collected = options.majorsAbove === null || majors === null || majors > options.majorsAbove
    const steady =
      readings.length === STEADY_READINGS &&
      Math.max(...readings) - Math.min(...readings) <= STEADY_SHARE * Math.min(...readings)
    if (now >= options.notBefore && collected && steady) return { mb: reading, settled: true, at: now }
    if (now >= options.deadline) return { mb: reading, settled: false, at: now }
    await sleep(READING_MS)
  }
}

/** The row on the gateway, then the same uploads through the proxy floor; each on a sandbox of its own. */
export async function runSignedInUploads(
  cores: Cores,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Pick<BenchResult, 'uploads' | 'uploadsFloor'>> {
  const uploadsThrough = (name: string, start: (ctx: RestTargetContext) => Promise<RunningRestTarget>) => {
    log(
      `signed-in uploads through ${name}: /healthz quiet for ${options.uploadsSeconds} s, then while 10 signed-in users send 5 MiB uploads for ${options.uploadsSeconds} s; RSS settled before and at least ${options.uploadsSettleSeconds} s after`,
    )
    return withSandbox(cores, options, async (ctx) => {
      try {
        const target = await start(ctx)
        try {
          return await sendSignedInUploads(target, (await ctx.sandbox()).url, options)
        } finally {
          await target.stop()
        }
      } catch (error) {
        return failedUploads(errorText(error))
      }
    })
  }
  return {
    uploads: await uploadsThrough('the gateway', (ctx) =>
      startGatewayOverSandbox(ctx, uncachedRequest, { env: SIGNED_IN_UPLOAD_ENV }),
    ),
    uploadsFloor: await uploadsThrough(PROXIED_FLOOR, async (ctx) => {
      const started = await restTarget(PROXIED_FLOOR).start(ctx)
      if ('unavailable' in started) throw new Error(started.unavailable)
      return started
    }),
  }
}

const failedUploads = (error: string): SignedInUploadsReport => ({
  ok: false,
  error,
  connections: CONNECTIONS,
  uploadBytes: 0,
  seconds: 0,
  statuses: {},
  healthzQuietMs: { samples: 0, p99: Number.NaN },
  healthzLoadedMs: { samples: 0, p99: Number.NaN },
  ratio: Number.NaN,
  rssMb: { before: Number.NaN, peak: Number.NaN, after: Number.NaN, afterSeconds: 0 },
})

async function sendSignedInUploads(
  target: RunningRestTarget,
  sandboxUrl: string,
  options: BenchOptions,
): Promise<SignedInUploadsReport> {
  const { url, pid } = target
  const rss = () => (pid === undefined ? Number.NaN : (readRssBytes(pid) ?? Number.NaN) / 2 ** 20)
  const stamp = Date.now().toString(36)
  const tokens = await Promise.all(
    Array.from({ length: CONNECTIONS }, (_, index) =>
      registerOnSandbox(sandboxUrl, `bench${stamp}u${index}`),
    ),
  )
  const health = new Client(url)
  const senders = tokens.map(() => new Client(url, { bodyTimeout: 120_000 }))
  const body = uploadBody()
  const limitMs = options.uploadsSettleLimitSeconds * 1000
  try {
    // before: the idle gateway after a full collection of its own (start-up runs a few before it
    // listens, with start-up's garbage still coming), its RSS steady
    const started = performance.now()
    const before = await settledRss({
      gatewayUrl: url,
      rss,
      majorsAbove: await majorCollections(url),
      notBefore: started,
      deadline: started + limitMs,
    })
    const rssBeforeMb = before.mb
    // quiet: the same probe on the same gateway, nothing else sent
    let quietOver = false
    const quietProbe = probeHealth(health, () => quietOver)
    await sleep(options.uploadsSeconds * 1000)
    quietOver = true
    const quiet = (await quietProbe).map(took)

    let over = false
    let rssPeakMb = rssBeforeMb
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rss())), RSS_SAMPLE_MS)
    const statuses: Record<string, number> = {}
    const send = async (client: Client, token: string): Promise<void> => {
      while (!over) {
        const response = await client
          .request({
            method: 'POST',
            path: CALLS.uploadOSS.path,
            headers: { 'content-type': UPLOAD_CONTENT_TYPE, satoken: token },
            body,
          })
          .catch(() => null)
        const status = response ? String(response.statusCode) : 'error'
        statuses[status] = (statuses[status] ?? 0) + 1
        await response?.body.dump()
        // a refusal says when to come back; a client that honours it does not spin
        if (response && response.statusCode !== 200) await sleep(100)
      }
    }
    const loadProbe = probeHealth(health, () => over)
    const sending = senders.map((client, index) => send(client, tokens[index]!))
    await sleep(options.uploadsSeconds * 1000)
    over = true
    const [probes] = await Promise.all([loadProbe, ...sending])
    const loaded = probes.map(took)
    clearInterval(sampler)
    rssPeakMb = Math.max(rssPeakMb, rss())
    // after: read the same way, from the settle time on, after a full collection since the burst
    const burstEnded = performance.now()
    const majorsAtEnd = await majorCollections(url)
    const after = await settledRss({
      gatewayUrl: url,
      rss,
      majorsAbove: majorsAtEnd,
      notBefore: burstEnded + options.uploadsSettleSeconds * 1000,
      deadline: burstEnded + options.uploadsSettleSeconds * 1000 + limitMs,
    })
    const rssAfterMb = after.mb

    const quietP99 = latencySummary(quiet).p99
    const loadedP99 = latencySummary(loaded).p99
    return {
      ok: quiet.length > 0 && loaded.length > 0 && (statuses['200'] ?? 0) > 0,
      connections: CONNECTIONS,
      uploadBytes: body.length,
      seconds: options.uploadsSeconds,
      statuses,
      healthzQuietMs: { samples: quiet.length, p99: quietP99 },
      healthzLoadedMs: { samples: loaded.length, p99: loadedP99 },
      ratio: loadedP99 / quietP99,
      rssMb: {
        before: rssBeforeMb,
        peak: rssPeakMb,
        after: rssAfterMb,
        afterSeconds: (after.at - burstEnded) / 1000,
        settled: { before: before.settled, after: after.settled },
      },
    }
  } finally {
    await Promise.all([health.close(), ...senders.map((client) => client.close())])
  }
}
