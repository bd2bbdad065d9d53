import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BUNDLE_LANGUAGES, CALLS } from '@tradegate/shared'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { ResponseCache } from '../../src/api/cache'
import type { UpstreamResponse } from '../../src/upstream/upstream'
import { startTestGateway, startUpstream, uniquePrefix, useTestStack, waitFor } from '../helpers'

// The two-tier cache against the real Redis: hit, miss, stale, stale-if-error, single flight, purge.

const SETTINGS = CALLS.getAllSetting
const { freshMs, staleMs } = SETTINGS.cache

let run = 0
/**
 * language headers of their own per test, so every test starts with an empty cache key: keys hold only
 * the 16 bundle languages, so the test's number picks `lang` and `language` stays English
 */
let headers: { language: string; lang: string }

const stack = useTestStack({ ADMIN_TOKEN: 'operator-token-1' })
beforeEach(async () => {
  headers = { language: 'en', lang: BUNDLE_LANGUAGES[++run % BUNDLE_LANGUAGES.length]! }
  await stack.upstream.resetCalls()
})
afterEach(() => {
  vi.useRealTimers()
})

const getSettings = (app = stack.gateway.app, languages = headers) =>
  app.inject({ url: SETTINGS.path, headers: languages })

const settingsCalls = async () => (await stack.upstream.calls())[SETTINGS.path] ?? 0

describe('cache', () => {
  it('misses once, then hits with x-cache and age headers', async () => {
    const storedBefore = Date.now()
    const first = await getSettings()
    expect(first.headers['x-cache']).toBe('miss')
    const second = await getSettings()
    expect(second.headers['x-cache']).toBe('hit')
    // whole seconds since the entry was stored: 0 unless this machine was slow between the calls
    const age = Number(second.headers.age)
    expect(Number.isInteger(age)).toBe(true)
    expect(age).toBeGreaterThanOrEqual(0)
    expect(age).toBeLessThanOrEqual(Math.ceil((Date.now() - storedBefore) / 1000))
    expect(second.body).toBe(first.body)
    expect(await settingsCalls()).toBe(1)
  })

  it('keeps one entry per language', async () => {
    await getSettings(stack.gateway.app, { ...headers, language: 'ja' })
    await getSettings(stack.gateway.app, { ...headers, language: 'ko' })
    const again = await getSettings(stack.gateway.app, { ...headers, language: 'ja' })
    expect(again.headers['x-cache']).toBe('hit')
    expect(await settingsCalls()).toBe(2)
  })

  it('serves stale after the fresh time and refreshes once in the background', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    await getSettings()
    vi.setSystemTime(Date.now() + freshMs + 1000)
    const stale = await getSettings()
    expect(stale.headers['x-cache']).toBe('stale')
    expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(freshMs / 1000)
    await waitFor(async () => (await settingsCalls()) === 2, 'background refresh')
    // the refreshed answer is stored once its compressed forms are ready
    await waitFor(async () => (await getSettings()).headers['x-cache'] === 'hit', 'refreshed answer stored')
    const refreshed = await getSettings()
    expect(refreshed.headers['x-cache']).toBe('hit')
    expect(refreshed.headers.age).toBe('0')
    expect(await settingsCalls()).toBe(2)
  })

  it('serves stale while the upstream is stopped, for hours past the stale window (stale-if-error)', async () => {
    const ownUpstream = await startUpstream()
    const staleIfErrorMs = 3 * 60 * 60 * 1000
    const own = await startTestGateway({
      UPSTREAM_URL: ownUpstream.url,
      REDIS_URL: '',
      UPSTREAM_GET_RETRIES: 0,
      CACHE_STALE_IF_ERROR_MS: staleIfErrorMs,
    })
    const upstreamUp = async () =>
      (await own.app.inject({ url: '/metrics' })).body.match(/^gateway_upstream_up\{[^}]*\} (\d)/m)?.[1]
    try {
      vi.useFakeTimers({ toFake: ['Date'] })
      const fresh = await getSettings(own.app)
      await ownUpstream.close()
      vi.setSystemTime(Date.now() + freshMs + 1000)
      const first = await getSettings(own.app)
      expect([first.statusCode, first.headers['x-cache'], first.body]).toEqual([200, 'stale', fresh.body])
      // its background refresh finds the upstream gone: the gateway now knows it is down
      await waitFor(async () => (await upstreamUp()) === '0', 'the refresh to fail')
      // within the stale window, past it, and near the end of the stale-if-error window
      for (const ahead of [1000, staleMs, staleIfErrorMs - staleMs - 60_000]) {
        vi.setSystemTime(Date.now() + ahead)
        const response = await getSettings(own.app)
        expect([response.statusCode, response.headers['x-cache'], response.body]).toEqual([
          200,
          'stale',
          fresh.body,
        ])
      }
      // past the stale-if-error window nothing is left to serve, so the outage shows, and at once
      vi.setSystemTime(Date.now() + 120_000)
      const gone = await getSettings(own.app)
      expect(gone.statusCode).toBe(503)
      expect(gone.headers['retry-after']).toBe('5')
      expect(gone.json()).toEqual({ code: 503, msg: 'upstreamUnavailable' })
    } finally {
      await own.close()
    }
  })

  it('keys cached answers by the 16 languages only: 60 language values make at most 17 upstream calls', async () => {
    const own = await startTestGateway({ UPSTREAM_URL: stack.upstream.url, REDIS_URL: '' })
    try {
      const values = [
        ...BUNDLE_LANGUAGES,
        ...BUNDLE_LANGUAGES.map((code) => `${code}-XX`),
        ...Array.from({ length: 28 }, (_, index) => `made-up-${index}`),
      ]
      expect(new Set(values).size).toBe(60)
      await stack.upstream.resetCalls()
      for (const value of values) {
        const response = await own.app.inject({ url: SETTINGS.path, headers: { language: value } })
        expect(response.statusCode).toBe(200)
      }
      // one call per bundle language and one for every other value, asked in the upstream's default
      expect(await settingsCalls()).toBe(17)
      const german = await own.app.inject({ url: SETTINGS.path, headers: { language: 'de-AT' } })
      expect(german.headers['x-cache']).toBe('hit')
      expect(german.body).toBe(
        (await own.app.inject({ url: SETTINGS.path, headers: { language: 'de' } })).body,
      )
    } finally {
      await own.close()
    }
  })

  it('drops the answer after the stale window, when only a live upstream can answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    await getSettings()
    vi.setSystemTime(Date.now() + freshMs + staleMs + 1000)
    const response = await getSettings()
    expect(response.headers['x-cache']).toBe('miss')
    expect(await settingsCalls()).toBe(2)
  })

  it('makes one upstream call for 100 concurrent misses', async () => {
    const responses = await Promise.all(Array.from({ length: 100 }, () => getSettings()))
    expect(responses.every((response) => response.statusCode === 200)).toBe(true)
    expect(new Set(responses.map((response) => response.body)).size).toBe(1)
    expect(await settingsCalls()).toBe(1)
  })

  it('stores only code-200 answers', async () => {
    await stack.upstream.fail(1, 'status503', SETTINGS.path)
    const failed = await getSettings()
    // the GET retry got the real answer; what matters is that the 503 was never stored
    expect(failed.statusCode).toBe(200)
    await stack.upstream.resetCalls()
    const configured = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      UPSTREAM_GET_RETRIES: 0,
      REDIS_URL: '',
    })
    try {
      await stack.upstream.fail(1, 'status503', SETTINGS.path)
      const refused = await getSettings(configured.app)
      expect(refused.statusCode).toBe(503)
      expect(refused.headers['x-cache']).toBe('miss')
      const next = await getSettings(configured.app)
      expect(next.statusCode).toBe(200)
      expect(next.headers['x-cache']).toBe('miss')
      expect(await settingsCalls()).toBe(2)
    } finally {
      await configured.close()
    }
  })

  it('shares answers between instances through Redis', async () => {
    const other = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_PREFIX: stack.gateway.config.REDIS_PREFIX,
    })
    try {
      expect((await getSettings()).headers['x-cache']).toBe('miss')
      await waitFor(
        async () =>
          (await other.app.redis!.exists(
            `${stack.gateway.config.REDIS_PREFIX}cache:${SETTINGS.path}|${headers.language}|${headers.lang}`,
          )) === 1,
        'shared write',
      )
      const fromRedis = await getSettings(other.app)
      expect(fromRedis.headers['x-cache']).toBe('hit')
      expect(await settingsCalls()).toBe(1)
    } finally {
      await other.close()
    }
  })

  it('purges on the operator call guarded by ADMIN_TOKEN', async () => {
    await getSettings()
    const refused = await stack.gateway.app.inject({ method: 'POST', url: '/admin/cache/purge' })
    expect(refused.statusCode).toBe(403)
    const wrong = await stack.gateway.app.inject({
      method: 'POST',
      url: '/admin/cache/purge',
      headers: { 'x-admin-token': 'operator-token-2' },
    })
    expect(wrong.statusCode).toBe(403)
    expect((await getSettings()).headers['x-cache']).toBe('hit')
    const purged = await stack.gateway.app.inject({
      method: 'POST',
      url: '/admin/cache/purge',
      headers: { 'x-admin-token': 'operator-token-1' },
    })
    expect(purged.statusCode).toBe(200)
    expect((await getSettings()).headers['x-cache']).toBe('miss')
    expect(await settingsCalls()).toBe(2)
  })

  it('has no operator call when ADMIN_TOKEN is empty', async () => {
    const plain = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      REDIS_PREFIX: uniquePrefix('x'),
    })
    try {
      const response = await plain.app.inject({
        method: 'POST',
        url: '/admin/cache/purge',
        headers: { 'x-admin-token': '' },
      })
      expect(response.statusCode).toBe(404)
    } finally {
      await plain.close()
    }
  })

  it('counts results in gateway_cache_requests_total', async () => {
    await getSettings()
    await getSettings()
    const metrics = (await stack.gateway.app.inject({ url: '/metrics' })).body
    expect(metrics).toMatch(
      /gateway_cache_requests_total\{[^}]*route="\/api\/common\/getAllSetting"[^}]*result="hit"[^}]*\} [1-9]/,
    )
    expect(metrics).toMatch(/gateway_cache_requests_total\{[^}]*result="miss"[^}]*\} [1-9]/)
  })
})

describe('compressed cache entries', () => {
  const answerOf = (body: string): UpstreamResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(body),
    ms: 1,
  })

  it('compresses an answer once when it is stored and serves the same bytes on every hit', async () => {
    const cache = new ResponseCache({
      maxEntries: 10,
      redis: null,
      redisPrefix: 'unit:',
      log: stack.gateway.app.log,
    })
    const body = JSON.stringify({ code: 200, msg: 'ok', data: 'coin,'.repeat(600) })
    let fetches = 0
    const fetch = async () => {
      fetches++
      return answerOf(body)
    }
    const stored = await cache.serve('coins', SETTINGS.cache, fetch)
    expect(stored.result).toBe('miss')
    const encoded = stored.answer?.encoded
    expect(brotliDecompressSync(encoded!.br).toString()).toBe(body)
    expect(gunzipSync(encoded!.gzip).toString()).toBe(body)
    for (let hit = 0; hit < 3; hit++) {
      const served = await cache.serve('coins', SETTINGS.cache, fetch)
      expect(served.result).toBe('hit')
      // the very buffers made at storage, not a new compression
      expect(served.answer?.encoded?.br).toBe(encoded!.br)
      expect(served.answer?.encoded?.gzip).toBe(encoded!.gzip)
    }
    expect(fetches).toBe(1)
  })

  it('keeps answers under 1 KiB uncompressed', async () => {
    const cache = new ResponseCache({
      maxEntries: 10,
      redis: null,
      redisPrefix: 'unit:',
      log: stack.gateway.app.log,
    })
    const outcome = await cache.serve('small', SETTINGS.cache, async () => answerOf('{"code":200,"data":[]}'))
    expect(outcome.answer?.encoded).toBeNull()
  })
})
