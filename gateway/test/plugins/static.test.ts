import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, gzipSync, brotliDecompressSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from '../helpers'

// The built client: caching headers, precompressed files, the SPA fallback and path traversal.

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script src="/assets/app-3f9a1c.js"></script></body></html>'
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))})`
const SECRET = 'top-secret-outside-dist'

let parent: string
let dist: string
let upstream: TestUpstream
let gateway: TestGateway

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'gateway-static-'))
  dist = join(parent, 'dist')
  mkdirSync(join(dist, 'assets'), { recursive: true })
  writeFileSync(join(parent, 'secret.txt'), SECRET)
  writeFileSync(join(dist, 'index.html'), INDEX)
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>')
  writeFileSync(join(dist, '.env'), 'SECRET=1')
  writeFileSync(join(dist, 'assets', 'app-3f9a1c.js'), SCRIPT)
  writeFileSync(join(dist, 'assets', 'app-3f9a1c.js.br'), brotliCompressSync(SCRIPT))
  writeFileSync(join(dist, 'assets', 'app-3f9a1c.js.gz'), gzipSync(SCRIPT))
  upstream = await startUpstream()
  gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '', WEB_DIST: dist })
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
  rmSync(parent, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = {}) => gateway.app.inject({ url, headers })

describe('static client', () => {
  it('serves index.html never cached', async () => {
    const response = await get('/')
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(INDEX)
    expect(response.headers['cache-control']).toBe('no-cache')
  })

  it('serves hashed assets immutable for a year', async () => {
    const response = await get('/assets/app-3f9a1c.js')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.body).toBe(SCRIPT)
  })

  it('serves the brotli file to clients that accept it, and gzip to the others', async () => {
    const brotli = await gateway.app.inject({
      url: '/assets/app-3f9a1c.js',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT)
    const gzip = await get('/assets/app-3f9a1c.js', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.headers.vary).toContain('accept-encoding')
  })

  it('falls back to index.html for client routes, uncached', async () => {
    for (const url of ['/trade/btcusdt', '/login?redirect=/home', '/deep/nested/page']) {
      const response = await get(url)
      expect(response.statusCode).toBe(200)
      expect(response.body).toBe(INDEX)
      expect(response.headers['cache-control']).toBe('no-cache')
    }
  })

  it('answers missing files and API paths with JSON 404, not the page', async () => {
    for (const url of ['/assets/missing-123.js', '/api/unknown', '/ws', '/admin/nothing', '/.env']) {
      const response = await get(url)
      expect(response.statusCode, url).toBe(404)
      expect(response.json()).toEqual({ code: 404, msg: 'notFound' })
    }
  })

  it.each([
    '/API/user/getInfo',
    '/Api/common/getCoinList',
    '/aPI',
    '/%41PI/user/getInfo',
    '/WS/abc',
    '/API?x=1',
  ])('%s (the API in another case or encoding) gets the JSON 404, never the page', async (url) => {
    const response = await get(url)
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toMatch(/application\/json/)
    expect(response.json()).toEqual({ code: 404, msg: 'notFound' })
  })

  it('counts an unknown API path in any case as unknown_route', async () => {
    await get('/API/user/getInfo')
    const metrics = await get('/metrics')
    expect(metrics.body).toMatch(/gateway_rejected_requests_total\{reason="unknown_route"[^}]*\} [1-9]/)
  })

  it('still serves the page for a client route that merely starts with the letters api', async () => {
    const response = await get('/apiary')
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(INDEX)
  })

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets%2f..%2f..%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/%c0%ae%c0%ae/secret.txt',
  ])('never serves a file outside the client for %s', async (url) => {
    const response = await get(url)
    expect(response.body).not.toContain(SECRET)
    expect([400, 404]).toContain(response.statusCode)
    expect(response.json()).toMatchObject({ code: response.statusCode })
  })

  it('serves a small page instead of crashing when the client is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gateway-empty-'))
    const bare = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '', WEB_DIST: empty })
    try {
      for (const url of ['/', '/trade/btcusdt']) {
        const response = await bare.app.inject({ url })
        expect(response.statusCode).toBe(200)
        expect(response.body).toContain('not built')
      }
      expect((await bare.app.inject({ url: '/api/nope' })).statusCode).toBe(404)
    } finally {
      await bare.close()
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
