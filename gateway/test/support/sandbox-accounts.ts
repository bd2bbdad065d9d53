import { CALLS } from '@tradegate/shared'
import { ROOT_INVITE_CODE } from '../../sandbox/accounts/users'

/**
 * Signs a new user up on the sandbox at `url`, with its root invite code, as the register screen
 * does: the new session's token. The REST and the live tests' upstreams both register through it.
 */
export async function registerOnSandbox(url: string, username: string): Promise<string> {
  const response = await fetch(new URL(CALLS.register.path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'account',
      username,
      password: 'secret-pass',
      inviteCode: ROOT_INVITE_CODE,
    }),
  })
  const envelope = (await response.json()) as { code: number; msg: string; data?: { satoken: string } }
  if (!envelope.data) throw new Error(`register ${username}: ${envelope.msg}`)
  return envelope.data.satoken
}
