import { PHONE_PATTERN, toDecimal, type CallBody } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import type { LoginType } from './users'

// Sign-up and sessions: registration with its credit, sign-in, resuming a session and signing out.

const USERNAME_RULES: Record<LoginType, RegExp> = {
  email: /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/,
  phone: new RegExp(PHONE_PATTERN),
  account: /^[A-Za-z][A-Za-z0-9_]{2,31}$/,
  address: /^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/,
}

type SessionCalls = 'register' | 'login' | 'autoLogin' | 'loginOut'

export function sessionHandlers(state: SandboxState): Pick<Handlers, SessionCalls> {
  const { users, settings, publish } = state

  const inferType = (username: string): LoginType =>
    USERNAME_RULES.email.test(username) ? 'email' : USERNAME_RULES.phone.test(username) ? 'phone' : 'account'

  return {
    register: ({ body }) => register(state, body),

    login: ({ body }) => {
      const type = body.type ?? inferType(body.username)
      if (!settings.current.LOGIN_SETTING[type]) return refuse('loginMethodClosed')
      const user = users.byName(body.username)
      if (!user || !users.checkPassword(user, body.password)) return refuse('wrongCredentials')
      publish('USER_STATUS', user.id, { status: 'login' })
      return users.openSession(user)
    },

    autoLogin: ({ body }) => users.resumeSession(body.loginKey),

    loginOut: ({ user }) => {
      users.expireSessions(user.id)
      publish('USER_STATUS', user.id, { status: 'logout' })
      return null
    },
  }
}

/** A new user, once the sign-up method, name, invitation and code check out; credited and welcomed. */
function register(state: SandboxState, body: CallBody<'register'>) {
  const { users, settings } = state
  const config = settings.current
  if (!config.REGISTER_SETTING[body.type]) return refuse('registrationMethodClosed')
  if (!USERNAME_RULES[body.type].test(body.username)) return refuse(`invalidUsernameFor_${body.type}`)
  if (users.byName(body.username)) return refuse('usernameTaken')
  const inviter = body.inviteCode ? users.byInvite(body.inviteCode) : undefined
  if (body.inviteCode && !inviter) return refuse('unknownInviteCode')
  if (config.REGISTER_SETTING.inviteCodeRequired && !inviter) return refuse('inviteCodeRequired')
  const needsCode =
    (body.type === 'email' && config.VERIFY_CODE_SETTING.email) ||
    (body.type === 'phone' && config.VERIFY_CODE_SETTING.phone) ||
    (body.type === 'account' && config.VERIFY_CODE_SETTING.account)
  if (needsCode) users.useCode(body.username, body.code)

  const user = users.create({
    username: body.username,
    loginType: body.type,
    password: body.password,
    invitedBy: inviter?.id ?? null,
  })
  const credit = config.REGISTRATION_CREDIT
  const amount = toDecimal(credit.amount)
  if (amount.greaterThan(0)) {
    state.ledger.apply({
      kind: 'bonus',
      note: 'registration credit',
      legs: [
        { pool: 'outside', coin: credit.coin, amount: amount.negated() },
        { userId: user.id, account: 'platform', coin: credit.coin, available: amount },
      ],
    })
  }
  state.messages.post(
    user.id,
    'welcome',
    `Welcome! ${credit.amount} ${credit.coin.toUpperCase()} has been credited.`,
  )
  return { ...users.openSession(user), credit: credit.amount }
}
