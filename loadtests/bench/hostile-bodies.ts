/**
 * The hostile-bodies row: while one client sends the worst JSON body each call accepts over 10
 * connections, /healthz is asked one request at a time over its own connection. The question is
 * whether one client with legal-size bodies can stall the gateway: /healthz p99 and each hostile
 * request's answer time are what it records.
 *
 * The bodies go on a schedule, not after the last answer: the warm-up sends them back to back and
 * measures the rate the gateway answers, and the measured span offers OFFERED_SHARE of that rate at
 * even intervals. A request's time runs from its place in the schedule, so a stall delays every
 * request due during it, and each of them counts (back to back, a stall held the senders, and the
 * requests it delayed were never sent).
 *
 * "Accepts" is measured, not assumed: for each call the largest body the gateway reads (anything
 * but 413) is found first with a cheap body, so the row measures whatever limits the gateway runs.
 * Two shapes are sent at that size, the two the gateway's walks are slowest on: an object with tens
 * of thousands of extra keys, and an array of strings full of JSON and percent escapes.
 *
 * The upload calls are sent 5 MiB bodies among them, once without a session (refused before the body
 * is read) and once with a made-up one (refused too before the body is read, once the upstream has
 * said it knows no such session): uploads are the one place a legal body is megabytes, and /healthz must
 * not notice either. Signed-in uploads have a row of their own (signed-in-uploads.ts).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { Client, Pool } from 'undici'
import { CALLS } from '@tradegate/shared'
import { errorText } from './child-process'
import { latencySummary } from './percentiles'
import { cpuSince } from './proc-stats'
import {
  startGatewayOverSandbox,
  uncachedRequest,
  type RestTargetContext,
  type RunningRestTarget,
} from './rest-targets'
import type { BenchOptions, GatewayAnswers, HostileReport, LoopGaps } from './types'

const CONNECTIONS = 10
/** The measured span's rate, as a share of the rate the warm-up's back-to-back requests were answered. */
export const OFFERED_SHARE = 0.7
/** How often the schedule sends the requests that have come due. */
const TICK_MS = 2
const MAX_BODY = 1024 * 1024 - 1024
const MIN_BODY = 1024
/** Auth calls get a made-up session: the body is what is judged, and it must never reach the upstream. */
const FAKE_SESSION = 'bench-hostile-not-a-session'
/** Both upload rows send identity photos of this size (signed-in-uploads.ts too). */
export const UPLOAD_BYTES = 5 * 1024 * 1024
const UPLOAD_BOUNDARY = '----benchupload'
export const UPLOAD_CONTENT_TYPE = `multipart/form-data; boundary=${UPLOAD_BOUNDARY}`

export interface HostileCall {
  call: string
  path: string
  auth: boolean
}

type Shape = 'keys' | 'escapes' | 'upload with session' | 'upload without session'
const UPLOAD_SHAPES: readonly Shape[] = ['upload with session', 'upload without session']

/** Every upload call. */
export function uploadCalls(): HostileCall[] {
  return Object.entries(CALLS)
    .filter(([, call]) => 'bodyType' in call && call.bodyType === 'multipart')
    .map(([name, call]) => ({ call: name, path: call.path, auth: call.auth }))
}

/** An identity photo of `bytes` with its type field, framed as a browser frames the upload. */
export function uploadBody(bytes = UPLOAD_BYTES): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nidCardFront\r\n` +
        `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="front.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    Buffer.alloc(bytes, 0xab),
    Buffer.from(`\r\n--${UPLOAD_BOUNDARY}--\r\n`),
  ])
}

/** Every call with a JSON body, path parameters filled in. */
export function jsonBodyCalls(): HostileCall[] {
  return Object.entries(CALLS)
    .filter(
      ([, call]) =>
        call.method === 'POST' &&
        'body' in call &&
        call.body &&
        (!('bodyType' in call) || call.bodyType !== 'multipart'),
    )
    .map(([name, call]) => ({ call: name, path: call.path.replace(/:[A-Za-z]+/g, '1'), auth: call.auth }))
}

/** `{"k0":1,"k1":1,…}` up to `bytes`: the most keys a body of that size can carry. */
export function manyKeysBody(bytes: number): string {
  const parts: string[] = []
  let size = 2
  for (let i = 0; ; i++) {
    const part = `"k${i}":1`
    if (size + part.length + 1 > bytes) break
    parts.push(part)
    size += part.length + 1
  }
  return `{${parts.join(',')}}`
}

/** `{"v":["\\u00e9%25%25ab",…]}` up to `bytes`: strings a decode-until-stable check works hard on. */
export function escapedStringsBody(bytes: number): string {
  const item = '"\\u00e9%25%25ab"'
  const count = Math.max(0, Math.floor((bytes - 8) / (item.length + 1)))
  return `{"v":[${Array.from({ length: count }, () => item).join(',')}]}`
}

async function post(
  pool: Pool | Client,
  call: HostileCall,
  body: string | Buffer,
  shape: Shape = 'keys',
): Promise<number> {
  const upload = UPLOAD_SHAPES.includes(shape)
  const session = upload ? shape === 'upload with session' : call.auth
  const response = await pool.request({
    method: 'POST',
    path: call.path,
    headers: {
      'content-type': upload ? UPLOAD_CONTENT_TYPE : 'application/json',
      ...(session ? { satoken: FAKE_SESSION } : {}),
    },
    body,
  })
  await response.body.dump()
  return response.statusCode
}

/** The socket errors of a server that answered (or closed) before it took the whole body. */
const CUT_MID_BODY = new Set(['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET'])

/**
 * The largest body size, halving from just under 1 MiB, that the gateway reads instead of answering 413.
 * A gateway that refuses a body by its length answers before reading it and closes the connection, so
 * on a busy machine the client may still be writing: the write then fails, which is a refusal too.
 */
async function largestAccepted(client: Client, call: HostileCall): Promise<number> {
  for (let bytes = MAX_BODY; bytes >= MIN_BODY; bytes = Math.floor(bytes / 2)) {
    const cheap = `{"pad":"${'a'.repeat(Math.max(0, bytes - 11))}"}`
    const status = await post(client, call, cheap).catch((error: { code?: string }) => {
      if (error.code !== undefined && CUT_MID_BODY.has(error.code)) return 413
      throw error
    })
    if (status !== 413) return bytes
  }
  return MIN_BODY
}

type PlannedRequest = HostileCall & { shape: Shape; body: string | Buffer; statuses: Record<string, number> }

/** A request with when it was sent and answered (performance.now()). */
interface Timed {
  sent: number
  done: number
}

/** How long a request took, in ms. */
export const took = (request: Timed): number => request.done - request.sent

/** /healthz one request at a time until `stop()` says so, each with its times pushed to `probes`. */
export async function probeHealth(
  client: Client,
  stop: () => boolean,
  probes: Timed[] = [],
): Promise<Timed[]> {
  while (!stop()) {
    const sent = performance.now()
    const response = await client.request({ method: 'GET', path: '/healthz' })
    await response.body.dump()
    probes.push({ sent, done: performance.now() })
  }
  return probes
}

/** What one hostile run saw: every request with its times, the measured span, the server's CPU over it. */
interface HostileRun {
  hostile: Array<Timed & { entry: PlannedRequest; status: number }>
  probes: Timed[]
  start: number
  end: number
  seconds: number
  cpuMicros: number | undefined
  /** this process's CPU over the same span: the load generator's */
  generatorMicros: number | undefined
  /** the measured span's schedule, requests a second */
  offeredPerSecond: number
  gatewayLoop: LoopGaps | undefined
  gatewayAnswers: GatewayAnswers | undefined
  generatorLoopMaxMs: number
}

/** One histogram of the gateway's, every series summed: its samples, and how many were at most each bound. */
interface HistogramCounts {
  count: number
  atMost: Map<string, number>
}

const LOOP_DELAY_SERIES = 'gateway_event_loop_delay_seconds'
const ANSWER_TIME_SERIES = 'gateway_http_request_duration_seconds'

/** The gateway's /metrics text ('' when it does not answer). */
function readMetrics(gatewayUrl: string): Promise<string> {
  return fetch(`${gatewayUrl}/metrics`).then(
    (response) => (response.ok ? response.text() : ''),
    () => '',
  )
}

/** A histogram from /metrics text, its series (routes, methods, statuses) summed; undefined when absent. */
export function histogramCounts(text: string, series: string): HistogramCounts | undefined {
  let count: number | undefined
  for (const line of text.matchAll(new RegExp(`^${series}_count(?:\\{[^}]*\\})? (\\d+)`, 'gm')))
    count = (count ?? 0) + Number(line[1])
  if (count === undefined) return undefined
  const atMost = new Map<string, number>()
  for (const bucket of text.matchAll(new RegExp(`^${series}_bucket\\{([^}]*)\\} (\\d+)`, 'gm'))) {
    const bound = /\ble="([^"]+)"/.exec(bucket[1]!)?.[1]
    if (bound) atMost.set(bound, (atMost.get(bound) ?? 0) + Number(bucket[2]))
  }
  return { count, atMost }
}

/** Samples between two readings of a histogram, and how many of them were above each of `bounds`. */
function overBounds(
  before: HistogramCounts | undefined,
  after: HistogramCounts | undefined,
  bounds: string[],
): { samples: number; over: number[] } | undefined {
  if (!before || !after) return undefined
  const samples = after.count - before.count
  const over: number[] = []
  for (const bound of bounds) {
    const was = before.atMost.get(bound)
    const is = after.atMost.get(bound)
    if (was === undefined || is === undefined) return undefined
    over.push(samples - (is - was))
  }
  return { samples, over }
}

/** The loop timer's runs between two readings, and those later than 20 and 50 ms; undefined without both. */
export function loopGaps(
  before: HistogramCounts | undefined,
  after: HistogramCounts | undefined,
): LoopGaps | undefined {
  const counted = overBounds(before, after, ['0.02', '0.05'])
  return counted && { samples: counted.samples, over20ms: counted.over[0]!, over50ms: counted.over[1]! }
}

/** The answers the gateway gave between two readings, and those it took more than 50 ms over itself. */
export function slowAnswers(
  before: HistogramCounts | undefined,
  after: HistogramCounts | undefined,
): GatewayAnswers | undefined {
  const counted = overBounds(before, after, ['0.05'])
  return counted && { answers: counted.samples, over50ms: counted.over[0]! }
}

/** The row's name, as `--systems` selects it. */
export const HOSTILE_ROW = 'hostile bodies'

/** The row on a fresh gateway in front of the REST phase's sandbox; a failure is its report's error. */
export async function runHostileBodies(
  ctx: RestTargetContext,
  options: Pick<BenchOptions, 'hostileSeconds' | 'quick'>,
  log: (line: string) => void,
): Promise<HostileReport> {
  log(
    `hostile bodies: the worst body each call accepts and 5 MiB uploads with and without a session over 10 connections, on a schedule at ${OFFERED_SHARE * 100}% of the rate answered back to back, /healthz timed meanwhile`,
  )
  const gateway = await startGatewayOverSandbox(ctx, uncachedRequest)
  try {
    // long enough that the rate read over its second half is the warmed gateway's
    const warmupSeconds = options.quick ? 0.4 : 3
    return await sendHostileBodies(gateway, { seconds: options.hostileSeconds, warmupSeconds })
  } catch (error) {
    return {
      ok: false,
      error: errorText(error),
      connections: CONNECTIONS,
      seconds: 0,
      calls: [],
      requests: 0,
      offeredPerSecond: 0,
      requestsPerSecond: 0,
      hostileMs: { p50: Number.NaN, p99: Number.NaN, max: Number.NaN },
      healthzMs: { samples: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN },
    }
  } finally {
    await gateway.stop()
  }
}

async function sendHostileBodies(
  gateway: RunningRestTarget,
  timing: { seconds: number; warmupSeconds: number },
): Promise<HostileReport> {
  const probe = new Client(gateway.url)
  const pool = new Pool(gateway.url, { connections: CONNECTIONS })
  const health = new Client(gateway.url)
  try {
    const plan = await planRequests(probe)
    const run = await sendWhileProbing(plan, pool, health, { pid: gateway.pid, url: gateway.url, ...timing })
    return report(plan, run)
  } finally {
    await Promise.all([probe.close(), pool.close(), health.close()])
  }
}

/**
 * Each JSON call at the largest body it reads, in both shapes, and each upload call in each of its
 * shapes spread evenly among them: a steady client, not one that sends four 5 MiB bodies at once (in
 * a row at the plan's end they went out within a few ms of each other on a schedule, and with those
 * 20 MiB every request in flight, /healthz too, took some 40 ms on this machine's two cores).
 */
async function planRequests(probe: Client): Promise<PlannedRequest[]> {
  const bodies = new Map<string, string>()
  const bodyOf = (shape: 'keys' | 'escapes', bytes: number): string => {
    const key = `${shape}:${bytes}`
    let body = bodies.get(key)
    if (!body) bodies.set(key, (body = shape === 'keys' ? manyKeysBody(bytes) : escapedStringsBody(bytes)))
    return body
  }
  const json: PlannedRequest[] = []
  for (const call of jsonBodyCalls()) {
    const bytes = await largestAccepted(probe, call)
    for (const shape of ['keys', 'escapes'] as const)
      json.push({ ...call, shape, body: bodyOf(shape, bytes), statuses: {} })
  }
  const upload = uploadBody()
  const uploads = uploadCalls().flatMap((call) =>
    UPLOAD_SHAPES.map((shape): PlannedRequest => ({ ...call, shape, body: upload, statuses: {} })),
  )
  const every = Math.ceil(json.length / Math.max(1, uploads.length))
  return json
    .flatMap((entry, index) =>
      index % every === every - 1 && uploads.length > 0 ? [entry, uploads.shift()!] : [entry],
    )
    .concat(uploads)
}

/**
 * The warm-up: CONNECTIONS senders back to back, the rate they were answered read over its second
 * half. Then the measured span: the plan's requests at OFFERED_SHARE of that rate, each sent when it
 * comes due whatever is still unanswered, while one connection asks /healthz.
 */
async function sendWhileProbing(
  plan: PlannedRequest[],
  pool: Pool,
  health: Client,
  options: { pid: number | undefined; url: string; seconds: number; warmupSeconds: number },
): Promise<HostileRun> {
  let next = 0
  // Every request is kept with when it was due and answered; those whose time in flight
  // overlaps the measured span count, so an answer stalled for longer than the span still shows.
  const hostile: HostileRun['hostile'] = []
  const probes: Timed[] = []
  const send = async (sent: number): Promise<void> => {
    const entry = plan[next++ % plan.length]!
    const status = await post(pool, entry, entry.body, entry.shape).catch(() => 0)
    hostile.push({ sent, done: performance.now(), entry, status })
  }
  let warm = true
  const warmSender = async (): Promise<void> => {
    while (warm) await send(performance.now())
  }
  let probing = true
  const probe = probeHealth(health, () => !probing, probes)
  const warmStart = performance.now()
  const warmers = Array.from({ length: CONNECTIONS }, warmSender)
  await sleep(options.warmupSeconds * 1000)
  warm = false
  const warmEnd = performance.now()
  await Promise.all(warmers)
  const warmHalf = warmStart + (warmEnd - warmStart) / 2
  const answered = hostile.filter((request) => request.done >= warmHalf && request.done <= warmEnd).length
  const offeredPerSecond = Math.max(1, (OFFERED_SHARE * answered * 1000) / (warmEnd - warmHalf))
  hostile.length = 0

  // which side a stall was on: the gateway's own loop timer, and this process's loop
  // and the gateway's own time for each answer, from reading the request to writing the answer
  const metricsBefore = await readMetrics(options.url)
  const generatorLoop = monitorEventLoopDelay({ resolution: 10 })
  generatorLoop.enable()
  const cpu = cpuSince(options.pid)
  // the schedule's own clock: a generator short of CPU sends late, and that lateness counts as the gateway's
  const generatorCpu = cpuSince(process.pid)
  const start = performance.now()
  const end = start + options.seconds * 1000
  const interval = 1000 / offeredPerSecond
  const inFlight: Promise<void>[] = []
  let due = 0
  for (;;) {
    const now = Math.min(performance.now(), end)
    for (; start + due * interval <= now; due++) inFlight.push(send(start + due * interval))
    if (now >= end) break
    await sleep(TICK_MS)
  }
  await Promise.all(inFlight)
  probing = false
  await probe
  const seconds = (performance.now() - start) / 1000
  const cpuMicros = cpu()
  const generatorMicros = generatorCpu()
  generatorLoop.disable()
  const metricsAfter = await readMetrics(options.url)
  const gatewayLoop = loopGaps(
    histogramCounts(metricsBefore, LOOP_DELAY_SERIES),
    histogramCounts(metricsAfter, LOOP_DELAY_SERIES),
  )
  const gatewayAnswers = slowAnswers(
    histogramCounts(metricsBefore, ANSWER_TIME_SERIES),
    histogramCounts(metricsAfter, ANSWER_TIME_SERIES),
  )
  return {
    hostile,
    probes,
    start,
    end,
    seconds,
    cpuMicros,
    generatorMicros,
    offeredPerSecond,
    gatewayLoop,
    gatewayAnswers,
    generatorLoopMaxMs: generatorLoop.max / 1e6,
  }
}

/** The requests in flight during the measured span: statuses per planned request, and their times. */
function report(plan: PlannedRequest[], run: HostileRun): HostileReport {
  const { start, end, seconds } = run
  const overlaps = (request: Timed): boolean => request.sent <= end && request.done >= start
  const counted = run.hostile.filter(overlaps)
  for (const request of counted)
    request.entry.statuses[request.status] = (request.entry.statuses[request.status] ?? 0) + 1
  const isUpload = (request: (typeof counted)[number]) => UPLOAD_SHAPES.includes(request.entry.shape)
  const hostileMs = counted.filter((request) => !isUpload(request)).map(took)
  const uploadMs = counted.filter(isUpload).map(took)
  const healthzMs = run.probes.filter(overlaps).map(took)

  return {
    ok: hostileMs.length > 0 && healthzMs.length > 0,
    connections: CONNECTIONS,
    seconds,
    calls: plan.map((entry) => ({
      call: entry.call,
      path: entry.path,
      shape: entry.shape,
      bytes: typeof entry.body === 'string' ? Buffer.byteLength(entry.body) : entry.body.length,
      statuses: entry.statuses,
    })),
    requests: hostileMs.length,
    offeredPerSecond: run.offeredPerSecond,
    requestsPerSecond: hostileMs.length / seconds,
    hostileMs: latencySummary(hostileMs),
    uploads: { requests: uploadMs.length, ...latencySummary(uploadMs) },
    healthzMs: { samples: healthzMs.length, ...latencySummary(healthzMs) },
    serverCpuPercent: run.cpuMicros === undefined ? undefined : (run.cpuMicros / 1e6 / seconds) * 100,
    generatorCpuPercent:
      run.generatorMicros === undefined ? undefined : (run.generatorMicros / 1e6 / seconds) * 100,
    gatewayLoop: run.gatewayLoop,
    gatewayAnswers: run.gatewayAnswers,
    generatorLoopMaxMs: run.generatorLoopMaxMs,
  }
}
