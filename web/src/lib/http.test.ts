import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LIMITS, STORAGE_KEYS, TOKEN_EXPIRED_MESSAGE, isCode200 } from '@tradegate/shared'
import { reloadCalls } from '../../test/unit/browser-globals'
import { ApiError, callApi } from './http'
import { setLanguage } from './i18n'
import { currentToken, signIn } from './session'
import { toastStore } from './toast'

// A unit test of the HTTP client alone: fetch is stubbed, everything else is the real module.

interface SentRequest {
  url: string
  init: RequestInit
}

let sent: SentRequest[] = []

function answer(status: number, body: unknown) {
  const fetchStub = vi.fn(async (url: string, init: RequestInit) => {
    sent.push({ url, init })
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })
  })
  vi.stubGlobal('fetch', fetchStub)
  return fetchStub
}

function toastTexts(): string[] {
  return toastStore.get().map((toast) => toast.text)
}

beforeAll(async () => {
  await setLanguage('en', { save: false })
})

beforeEach(() => {
  sent = []
  toastStore.set([])
  localStorage.clear()
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('callApi', () => {
  it('resolves with data on HTTP 200 and a code above 0, sending the session and language headers', async () => {
    signIn({ satoken: 'token-abc', loginKey: 'key-12345678' })
    answer(200, { code: 200, msg: 'ok', data: { rows: [], total: 0 } })
    const data = await callApi('messageList', { query: { pageNum: '1', pageSize: '20' } })
    expect(data).toEqual({ rows: [], total: 0 })
    expect(sent[0]?.url).toBe('/api/message/list?pageNum=1&pageSize=20')
    const headers = sent[0]?.init.headers as Record<string, string>
    expect(headers.satoken).toBe('token-abc')
    expect(headers.language).toBe('en')
    expect(headers.lang).toBe('en')
    expect(toastTexts()).toEqual([])
  })

  it('posts JSON bodies and fills path parameters from the call table', async () => {
    answer(200, { code: 1, msg: 'ok', data: null })
    await callApi('watchlistRemove', { params: { id: '42' } })
    await callApi('login', { body: { username: 'a@b.co', password: 'secret1' } })
    expect(sent[0]?.url).toBe('/api/userCoin/remove/42')
    expect(sent[1]?.init.method).toBe('POST')
    expect(JSON.parse(String(sent[1]?.init.body))).toEqual({ username: 'a@b.co', password: 'secret1' })
    expect((sent[1]?.init.headers as Record<string, string>)['content-type']).toBe('application/json')
  })

  it('shows "Network anomaly" for an HTTP status other than 200', async () => {
    answer(502, '<html>bad gateway</html>')
    const failure = callApi('helpList')
    await expect(failure).rejects.toMatchObject({ reason: 'network', status: 502 })
    expect(toastTexts()).toEqual(['Network anomaly'])
  })

  it('says why a gateway-made error failed: the exchange unavailable, too many requests', async () => {
    answer(503, { code: 503, msg: 'upstreamUnavailable' })
    await expect(callApi('helpList')).rejects.toMatchObject({ reason: 'network', status: 503 })
    expect(toastTexts()).toEqual(['Service temporarily unavailable'])
    answer(429, { code: 429, msg: 'tooManyRequests' })
    await expect(callApi('helpList')).rejects.toMatchObject({ reason: 'network', status: 429 })
    expect(toastTexts()).toEqual(['Too many requests, please slow down'])
  })

  it("shows the exchange's own message on another status, and Network anomaly only for a body without one", async () => {
    answer(503, { code: 503, msg: 'Matching engine under maintenance' })
    await expect(callApi('helpList')).rejects.toMatchObject({ reason: 'network', status: 503 })
    expect(toastTexts()).toEqual(['Matching engine under maintenance'])
    answer(503, { code: 503, msg: 'insufficientBalance' })
    await expect(callApi('helpList')).rejects.toBeInstanceOf(ApiError)
    expect(toastTexts()).toEqual(['Insufficient balance'])
    answer(503, { code: 503, msg: '' })
    await expect(callApi('helpList')).rejects.toBeInstanceOf(ApiError)
    expect(toastTexts()).toEqual(['Network anomaly'])
  })

  it('shows the server message of a refused call, translated when it is a known key', async () => {
    answer(200, { code: -1, msg: 'wrongCredentials' })
    await expect(
      callApi('login', { body: { username: 'x@y.co', password: 'secret1' } }),
    ).rejects.toMatchObject({
      reason: 'refused',
      code: -1,
    })
    answer(200, { code: 0, msg: 'Balance is locked' })
    await expect(callApi('helpList')).rejects.toMatchObject({ reason: 'refused' })
    expect(toastTexts()).toEqual(['Balance is locked'])
  })

  it('shows "System error" when a refused call has no message or the body is not JSON', async () => {
    answer(200, { code: 0 })
    await expect(callApi('helpList')).rejects.toMatchObject({ reason: 'refused' })
    expect(toastTexts()).toEqual(['System error'])
    answer(200, 'not json')
    await expect(callApi('helpList')).rejects.toMatchObject({ reason: 'refused' })
    expect(toastTexts()).toEqual(['System error'])
  })

  it('accepts only code 200 when asked (settings, user info)', async () => {
    answer(200, { code: 201, msg: 'created', data: {} })
    await expect(callApi('getAllSetting', {}, { accept: isCode200, quiet: true })).rejects.toMatchObject({
      reason: 'refused',
    })
    expect(toastTexts()).toEqual([])
    answer(200, { code: '200', msg: 'ok', data: { a: 1 } })
    await expect(callApi('getAllSetting', {}, { accept: isCode200 })).resolves.toEqual({ a: 1 })
  })

  it('signs out on an expired token and reloads the page after the short delay', async () => {
    vi.useFakeTimers()
    signIn({ satoken: 'old-token', loginKey: 'key-12345678' })
    localStorage.setItem(STORAGE_KEYS.userInfo, '{"userId":"1"}')
    answer(200, { code: '500', msg: TOKEN_EXPIRED_MESSAGE })
    const before = reloadCalls()
    await expect(callApi('assetBalance')).rejects.toMatchObject({ reason: 'tokenExpired' })
    expect(currentToken()).toBe('')
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEYS.userInfo)).toBeNull()
    expect(reloadCalls()).toBe(before)
    vi.advanceTimersByTime(LIMITS.tokenExpiredReloadMs)
    expect(reloadCalls()).toBe(before + 1)
  })

  it("signs out the same way on the gateway's 401 signInRequired, and not on another 401", async () => {
    vi.useFakeTimers()
    signIn({ satoken: 'bad token', loginKey: 'key-12345678' })
    answer(401, { code: 401, msg: 'signInRequired', detail: 'headers.satoken' })
    const before = reloadCalls()
    await expect(callApi('assetBalance')).rejects.toMatchObject({ reason: 'tokenExpired', status: 401 })
    expect(currentToken()).toBe('')
    vi.advanceTimersByTime(LIMITS.tokenExpiredReloadMs)
    expect(reloadCalls()).toBe(before + 1)

    signIn({ satoken: 'kept-token', loginKey: 'key-12345678' })
    answer(401, { code: 401, msg: 'forbidden' })
    await expect(callApi('assetBalance')).rejects.toMatchObject({ reason: 'network', status: 401 })
    expect(currentToken()).toBe('kept-token')
  })

  it('signs this page out once a new password is accepted, saying the session ended, and not when refused', async () => {
    const change = { query: { oldPwd: 'old-pass-1', newPwd: 'new-pass-2' } }
    signIn({ satoken: 'token-abc', loginKey: 'key-12345678' })
    answer(200, { code: -1, msg: 'wrongPassword' })
    await expect(callApi('updateUserLoginPwd', change)).rejects.toMatchObject({ reason: 'refused' })
    expect(currentToken()).toBe('token-abc')

    answer(200, { code: 200, msg: 'success', data: null })
    await callApi('updateUserLoginPwd', change)
    expect(currentToken()).toBe('')
    expect(localStorage.getItem(STORAGE_KEYS.autoLogin)).toBeNull()
    expect(sessionStorage.getItem(STORAGE_KEYS.sessionEnded)).toBe('newPassword')

    // the fund password's change ends them alike, by the same rule of the call table
    signIn({ satoken: 'token-def', loginKey: 'key-12345678' })
    await callApi('updatePwd', { query: { ...change.query, signType: 'fund' } })
    expect(currentToken()).toBe('')
  })

  it("signs this page out on the user's own sign-out whatever the server answers, without saying it ended", async () => {
    for (const [status, body] of [
      [200, { code: 200, msg: 'success', data: null }],
      [502, { code: 502, msg: 'upstreamUnavailable' }],
    ] as const) {
      signIn({ satoken: 'token-abc', loginKey: 'key-12345678' })
      answer(status, body)
      await callApi('loginOut', {}, { quiet: true }).catch(() => undefined)
      expect(currentToken(), String(status)).toBe('')
      expect(localStorage.getItem(STORAGE_KEYS.autoLogin), String(status)).toBeNull()
      expect(sessionStorage.getItem(STORAGE_KEYS.sessionEnded), String(status)).toBeNull()
    }
  })

  it('refuses Chinese in a query or body at any depth without sending anything', async () => {
    const fetchStub = answer(200, { code: 200, msg: 'ok', data: null })
    await expect(
      callApi('sendEmailCode', { query: { codeType: 'bind', email: '张三@x.com' } }),
    ).rejects.toMatchObject({
      reason: 'chinese',
    })
    await expect(
      callApi('register', { body: { type: 'email', username: 'a@b.co', password: '密码123456' } }),
    ).rejects.toMatchObject({ reason: 'chinese' })
    expect(fetchStub).not.toHaveBeenCalled()
    expect(toastTexts()).toEqual(['Chinese characters cannot be entered'])
  })

  it('gives up after the 60 s timeout with "Network anomaly"', async () => {
    vi.useFakeTimers()
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason))
          }),
      ),
    )
    const pending = callApi('helpList')
    const outcome = expect(pending).rejects.toMatchObject({ reason: 'network' })
    await vi.advanceTimersByTimeAsync(LIMITS.httpTimeoutMs - 1)
    expect(toastTexts()).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await outcome
    expect(toastTexts()).toEqual(['Network anomaly'])
  })

  it('keeps toasts for the standard 2000 ms', async () => {
    vi.useFakeTimers()
    answer(500, '')
    await expect(callApi('helpList')).rejects.toBeInstanceOf(ApiError)
    vi.advanceTimersByTime(LIMITS.toastMs - 1)
    expect(toastTexts()).toEqual(['Network anomaly'])
    vi.advanceTimersByTime(1)
    expect(toastTexts()).toEqual([])
  })
})
