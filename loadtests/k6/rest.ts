/**
 * REST: anonymous users reading the cached settings and coin list, and users who log in and read
 * their own info and balance with the returned token.
 *
 *   k6 run -e TARGET_URL=https://gateway.example.com -e USERNAME=demo -e PASSWORD=secret loadtests/k6/rest.ts
 *
 * Env: TARGET_URL (default http://localhost:8080), USERNAME / PASSWORD (an account that exists on
 * the target; the defaults are placeholders), RATE (anonymous requests per second, default 500),
 * LOGIN_RATE (logins per second, default 20), DURATION (default 2m).
 */
import http from 'k6/http'
import { check, group } from 'k6'
import { Rate, Trend } from 'k6/metrics'
import type { Options } from 'k6/options'

const TARGET_URL = (__ENV.TARGET_URL ?? 'http://localhost:8080').replace(/\/$/, '')
const USERNAME = __ENV.USERNAME ?? 'demo@example.com'
const PASSWORD = __ENV.PASSWORD ?? 'demo1234'
const RATE = Number(__ENV.RATE ?? 500)
const LOGIN_RATE = Number(__ENV.LOGIN_RATE ?? 20)
const DURATION = __ENV.DURATION ?? '2m'

export const options: Options = {
  scenarios: {
    cached_reads: {
      executor: 'constant-arrival-rate',
      exec: 'cachedReads',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(10, Math.ceil(RATE / 10)),
      maxVUs: Math.max(50, RATE),
    },
    signed_in: {
      executor: 'constant-arrival-rate',
      exec: 'signedIn',
      rate: LOGIN_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(5, LOGIN_RATE),
      maxVUs: Math.max(20, LOGIN_RATE * 5),
    },
  },
  thresholds: {
    'http_req_duration{name:getAllSetting}': ['p(99)<50'],
    'http_req_duration{name:getCoinList}': ['p(99)<50'],
    'http_req_duration{name:login}': ['p(99)<500'],
    'http_req_duration{name:getInfo}': ['p(99)<300'],
    'http_req_duration{name:assetBalance}': ['p(99)<300'],
    http_req_failed: ['rate<0.01'],
    api_errors: ['rate<0.01'],
  },
}

/** Answers that came back 200 over HTTP but carry an application error code in the body. */
const apiErrors = new Rate('api_errors')
const loginDuration = new Trend('login_to_balance', true)

interface ApiBody {
  code?: number
  msg?: string
  data?: { satoken?: string } | unknown
}

function readBody(body: string | ArrayBuffer | null): ApiBody | undefined {
  if (typeof body !== 'string') return undefined
  try {
    return JSON.parse(body) as ApiBody
  } catch {
    return undefined
  }
}

function expectOk(response: http.RefinedResponse<'text'>, name: string): ApiBody | undefined {
  const body = readBody(response.body)
  const ok = check(response, {
    [`${name}: status 200`]: (r) => r.status === 200,
    [`${name}: code 200`]: () => body?.code === 200,
  })
  apiErrors.add(!ok)
  return ok ? body : undefined
}

export function cachedReads(): void {
  group('cached reads', () => {
    const language = { language: 'en', lang: 'en' }
    expectOk(
      http.get(`${TARGET_URL}/api/common/getAllSetting`, {
        headers: language,
        tags: { name: 'getAllSetting' },
      }),
      'getAllSetting',
    )
    expectOk(
      http.get(`${TARGET_URL}/api/common/getCoinList`, { headers: language, tags: { name: 'getCoinList' } }),
      'getCoinList',
    )
  })
}

export function signedIn(): void {
  group('login then authenticated reads', () => {
    const started = Date.now()
    const login = expectOk(
      http.post(`${TARGET_URL}/api/user/login`, JSON.stringify({ username: USERNAME, password: PASSWORD }), {
        headers: { 'content-type': 'application/json' },
        tags: { name: 'login' },
      }),
      'login',
    )
    const data = login?.data as { satoken?: string } | undefined
    const satoken = data?.satoken
    if (!satoken) return
    const headers = { satoken, language: 'en', lang: 'en' }
    expectOk(http.get(`${TARGET_URL}/api/user/getInfo`, { headers, tags: { name: 'getInfo' } }), 'getInfo')
    expectOk(
      http.get(`${TARGET_URL}/api/asset/assetBalance`, { headers, tags: { name: 'assetBalance' } }),
      'assetBalance',
    )
    loginDuration.add(Date.now() - started)
  })
}
