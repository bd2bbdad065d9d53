/**
 * The signed-in uploads row: /healthz p99 while 10 connections, each a signed-in user of the sandbox,
 * send 5 MiB identity photos one after another, against its quiet value on the same gateway just
 * before; and the gateway's RSS before, at its peak, and a minute after the last upload.
 *
 * The gateway runs with its default in-flight bound per instance and the per-address bounds lifted
 * (every connection comes from 127.0.0.1, where ten users would come from ten addresses), so the
 * instance's bound is what holds the load; refusals (503) are counted beside the uploads answered.
 */
import { Client } from 'undici'
import { CALLS } from '@tradegate/shared'
import { readRssBytes } from './proc-stats'
import type { SignedInUploadsReport } from './types'

const CONNECTIONS = 10
const UPLOAD_BYTES = 5 * 1024 * 1024
const BOUNDARY = '----benchsignedinupload'
/** The sandbox's invite code for new accounts (gateway/sandbox/accounts/users.ts). */
const INVITE_CODE = 'SANDBOX'
const RSS_SAMPLE_MS = 100

/** What the gateway runs with for this row, on top of the bench's usual settings. */
export const SIGNED_IN_UPLOAD_ENV = {
  UPLOAD_RATE_PER_MINUTE: '1000000',
  UPLOAD_RATE_PER_USER_PER_MINUTE: '1000000',
  UPLOADS_IN_FLIGHT_PER_CLIENT: String(CONNECTIONS),
}

function uploadBody(): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nidCardFront\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="front.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    Buffer.alloc(UPLOAD_BYTES, 0xab),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** A new sandbox account, signed in: its session token. */
async function signUp(sandboxUrl: string, username: string): Promise<string> {
  const response = await fetch(sandboxUrl + CALLS.register.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'account', username, password: 'bench-pass-1', inviteCode: INVITE_CODE }),
  })
  const envelope = (await response.json()) as { msg: string; data?: { satoken: string } }
  if (!envelope.data) throw new Error(`sign-up of ${username} refused: ${envelope.msg}`)
  return envelope.data.satoken
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.ceil(0.99 * sorted.length) - 1]!
}

/** /healthz one request at a time until `stop()` says so; each answer's time in ms. */
function probeHealth(client: Client, stop: () => boolean): Promise<number[]> {
  return (async () => {
    const times: number[] = []
    while (!stop()) {
      const sent = performance.now()
      const response = await client.request({ method: 'GET', path: '/healthz' })
      await response.body.dump()
      times.push(performance.now() - sent)
    }
    return times
  })()
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function runSignedInUploads(options: {
  gatewayUrl: string
  sandboxUrl: string
  pid: number | undefined
  seconds: number
  /** how long after the last upload the RSS is read again (a minute in a full run) */
  settleSeconds: number
}): Promise<SignedInUploadsReport> {
  const rss = () =>
    options.pid === undefined ? Number.NaN : (readRssBytes(options.pid) ?? Number.NaN) / 2 ** 20
  const stamp = Date.now().toString(36)
  const tokens = await Promise.all(
    Array.from({ length: CONNECTIONS }, (_, index) => signUp(options.sandboxUrl, `bench${stamp}u${index}`)),
  )
  const health = new Client(options.gatewayUrl)
  const senders = tokens.map(() => new Client(options.gatewayUrl, { bodyTimeout: 120_000 }))
  const body = uploadBody()
  try {
    // quiet: the same probe on the same gateway, nothing else sent
    let quietOver = false
    const quietProbe = probeHealth(health, () => quietOver)
    await wait(options.seconds * 1000)
    quietOver = true
    const quiet = await quietProbe
    const rssBeforeMb = rss()

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
            headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, satoken: token },
            body,
          })
          .catch(() => null)
        const status = response ? String(response.statusCode) : 'error'
        statuses[status] = (statuses[status] ?? 0) + 1
        await response?.body.dump()
        // a refusal says when to come back; a client that honours it does not spin
        if (response && response.statusCode !== 200) await wait(100)
      }
    }
    const loadProbe = probeHealth(health, () => over)
    const sending = senders.map((client, index) => send(client, tokens[index]!))
    await wait(options.seconds * 1000)
    over = true
    const [loaded] = await Promise.all([loadProbe, ...sending])
    clearInterval(sampler)
    rssPeakMb = Math.max(rssPeakMb, rss())
    await wait(options.settleSeconds * 1000)
    const rssAfterMb = rss()

    const quietP99 = p99(quiet)
    const loadedP99 = p99(loaded)
    return {
      ok: quiet.length > 0 && loaded.length > 0 && (statuses['200'] ?? 0) > 0,
      connections: CONNECTIONS,
      uploadBytes: body.length,
      seconds: options.seconds,
      statuses,
      healthzQuietMs: { samples: quiet.length, p99: quietP99 },
      healthzLoadedMs: { samples: loaded.length, p99: loadedP99 },
      ratio: loadedP99 / quietP99,
      rssMb: { before: rssBeforeMb, peak: rssPeakMb, after: rssAfterMb, afterSeconds: options.settleSeconds },
    }
  } finally {
    await Promise.all([health.close(), ...senders.map((client) => client.close())])
  }
}
