import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, type TestGateway } from '../helpers'
import { startUpstream, type TestUpstream } from '../upstream'

// Calls the upstream checks an e-mail or phone code on are refused at the gateway without one, named
// as such, before anything is forwarded; the fund-password ones only while the settings ask.

let upstream: TestUpstream
let gateway: TestGateway
let token: string
beforeAll(async () => {
  upstream = await startUpstream()
  gateway = await startTestGateway({ UPSTREAM_URL: upstream.url })
  token = await upstream.register(`codes${Date.now().toString(36)}`)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const post = (via: TestGateway, url: string, as = token) =>
  via.app.inject({ method: 'POST', url, headers: { satoken: as } })

describe('verification codes', () => {
  it('refuses every code-checked call without its code, naming the field, and forwards none', async () => {
    await upstream.resetCalls()
    const cases = [
      [`${CALLS.tardPwdSet.path}?pwd=fund-pass-1`, 'query.code'],
      [`${CALLS.tardPwdSet.path}?pwd=fund-pass-1&code=`, 'query.code'],
      [`${CALLS.updatePwd.path}?oldPwd=fund-pass-1&newPwd=fund-pass-2&signType=fund`, 'query.code'],
      [`${CALLS.bindEmail.path}?email=a%40b.co`, 'query.emailCode'],
      [`${CALLS.bindPhone.path}?phone=%2B8613800138000`, 'query.code'],
      [CALLS.unBindPhone.path, 'query.code'],
      [`${CALLS.backPwd.path}?email=a%40b.co&newPwd=secret-pass-2`, 'query.emailCode'],
    ] as const
    for (const [url, detail] of cases) {
      const refused = await post(gateway, url)
      expect(refused.statusCode, url).toBe(400)
      expect(refused.json(), url).toEqual({ code: 400, msg: 'codeRequired', detail })
    }
    const forwarded = await upstream.calls()
    for (const [url] of cases) expect(forwarded[url.split('?')[0]!], url).toBeUndefined()
  })

  it('forwards the same calls with a code, and a login password change without one', async () => {
    await upstream.resetCalls()
    // the sandbox judges the code itself: no code was sent, so it answers as expired
    const withCode = await post(gateway, `${CALLS.tardPwdSet.path}?pwd=fund-pass-1&code=123456`)
    expect(withCode.json()).toMatchObject({ msg: 'codeExpired' })
    const change = await post(
      gateway,
      `${CALLS.updatePwd.path}?oldPwd=fund-pass-1&newPwd=fund-pass-2&signType=fund&code=123456`,
    )
    expect(change.json()).not.toMatchObject({ msg: 'codeRequired' })
    const login = await post(
      gateway,
      `${CALLS.updatePwd.path}?oldPwd=wrong-pass&newPwd=secret-pass-2&signType=login`,
    )
    expect(login.json()).toMatchObject({ msg: 'wrongPassword' })
    expect(await upstream.calls()).toMatchObject({
      [CALLS.tardPwdSet.path]: 1,
      [CALLS.updatePwd.path]: 2,
    })
  })

  it('forwards a fund password without a code when the settings do not ask for one', async () => {
    // an upstream, a gateway and a user of its own: the settings change and the sign-out the password
    // change brings must not reach the other tests, whichever order they run in
    const lenient = await startUpstream()
    const quiet = await startTestGateway({ UPSTREAM_URL: lenient.url })
    try {
      const own = await lenient.register(`lenient${Date.now().toString(36)}`)
      const control = await fetch(`${lenient.url}/sandbox/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ VERIFY_CODE_SETTING: { withdrawPassword: false } }),
      })
      expect(control.ok).toBe(true)
      const set = await post(quiet, `${CALLS.tardPwdSet.path}?pwd=fund-pass-1`, own)
      expect(set.json()).toMatchObject({ code: 200 })
      const change = await post(
        quiet,
        `${CALLS.updatePwd.path}?oldPwd=fund-pass-1&newPwd=fund-pass-2&signType=fund`,
        own,
      )
      expect(change.json()).toMatchObject({ code: 200 })
      // the change signed the session out; recovery needs its code whatever the settings say
      const recover = await post(quiet, `${CALLS.backPwd.path}?email=a%40b.co&newPwd=secret-pass-2`, own)
      expect(recover.json()).toEqual({ code: 400, msg: 'codeRequired', detail: 'query.emailCode' })
    } finally {
      await quiet.close()
      await lenient.close()
    }
  })
})
