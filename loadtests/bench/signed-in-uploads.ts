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
import { readRssBytes } from './proc-stats'
import type { SignedInUploadsReport } from './types'

const CONNECTIONS = 10
const RSS_SAMPLE_MS = 100
/** settled: this many readings in a row, a second apart, within STEADY_SHARE of each other */
const STEADY_READINGS = 5
const STEADY_SHARE = 0.02
const READING_MS = 1000

/** What the gateway runs with for this row, on top of the bench's usual settings. */
export const SIGNED_IN_UPLOAD_ENV = {
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

export async function runSignedInUploads(options: {
  gatewayUrl: string
  sandboxUrl: string
  pid: number | undefined
  seconds: number
  /** how long after the last upload the RSS is read again at the soonest (a minute in a full run) */
  settleSeconds: number
  /** how long either reading waits at most for the gateway to settle */
  settleLimitSeconds: number
}): Promise<SignedInUploadsReport> {
  const rss = () =>
    options.pid === undefined ? Number.NaN : (readRssBytes(options.pid) ?? Number.NaN) / 2 ** 20
  const stamp = Date.now().toString(36)
  const tokens = await Promise.all(
    Array.from({ length: CONNECTIONS }, (_, index) =>
      registerOnSandbox(options.sandboxUrl, `bench${stamp}u${index}`),
    ),
  )
  const health = new Client(options.gatewayUrl)
  const senders = tokens.map(() => new Client(options.gatewayUrl, { bodyTimeout: 120_000 }))
  const body = uploadBody()
  const limitMs = options.settleLimitSeconds * 1000
  try {
    // before: the idle gateway after a full collection of its own (start-up runs a few before it
    // listens, with start-up's garbage still coming), its RSS steady
    const started = performance.now()
    const before = await settledRss({
      gatewayUrl: options.gatewayUrl,
      rss,
      majorsAbove: await majorCollections(options.gatewayUrl),
      notBefore: started,
      deadline: started + limitMs,
    })
    const rssBeforeMb = before.mb
    // quiet: the same probe on the same gateway, nothing else sent
    let quietOver = false
    const quietProbe = probeHealth(health, () => quietOver)
    await sleep(options.seconds * 1000)
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
    await sleep(options.seconds * 1000)
    over = true
    const [probes] = await Promise.all([loadProbe, ...sending])
    const loaded = probes.map(took)
    clearInterval(sampler)
    rssPeakMb = Math.max(rssPeakMb, rss())
    // after: read the same way, from the settle time on, after a full collection since the burst
    const burstEnded = performance.now()
    const majorsAtEnd = await majorCollections(options.gatewayUrl)
    const after = await settledRss({
      gatewayUrl: options.gatewayUrl,
      rss,
      majorsAbove: majorsAtEnd,
      notBefore: burstEnded + options.settleSeconds * 1000,
      deadline: burstEnded + options.settleSeconds * 1000 + limitMs,
    })
    const rssAfterMb = after.mb

    const quietP99 = latencySummary(quiet).p99
    const loadedP99 = latencySummary(loaded).p99
    return {
      ok: quiet.length > 0 && loaded.length > 0 && (statuses['200'] ?? 0) > 0,
      connections: CONNECTIONS,
      uploadBytes: body.length,
      seconds: options.seconds,
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
