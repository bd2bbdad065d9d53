import { PHONE_PATTERN, toDecimal } from '@tradegate/shared'
import type { Handlers, UploadedFile } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import type { LoginType, User } from './users'

// Sign-up, sign-in, passwords, bindings, identity verification, withdraw addresses and invitations.

const USERNAME_RULES: Record<LoginType, RegExp> = {
  email: /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/,
  phone: new RegExp(PHONE_PATTERN),
  account: /^[A-Za-z][A-Za-z0-9_]{2,31}$/,
  address: /^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/,
}

const COUNTRY_CODES = [
  { name: 'China', code: '86' },
  { name: 'Hong Kong', code: '852' },
  { name: 'Japan', code: '81' },
  { name: 'Korea', code: '82' },
  { name: 'Thailand', code: '66' },
  { name: 'Vietnam', code: '84' },
  { name: 'United States', code: '1' },
  { name: 'United Kingdom', code: '44' },
  { name: 'Germany', code: '49' },
  { name: 'France', code: '33' },
  { name: 'Brazil', code: '55' },
  { name: 'Russia', code: '7' },
]

export const INVITE_URL_BASE = '/#/register?inviteCode='

type AccountCalls =
  | 'register'
  | 'login'
  | 'autoLogin'
  | 'loginOut'
  | 'updateUserLoginPwd'
  | 'backPwd'
  | 'sendEmailCode'
  | 'bindEmail'
  | 'getCountryCode'
  | 'sendMobileCode'
  | 'bindPhone'
  | 'unBindPhone'
  | 'tardPwdSet'
  | 'updatePwd'
  | 'uploadKYC'
  | 'updateWithdrawAddress'
  | 'withdrawAddress'
  | 'getInfo'
  | 'userInfo'
  | 'inviteInfo'
  | 'inviteTeam'

export interface KycApplication {
  userId: string
  level: number
  realName: string
  idNumber: string
  country?: string
  files: UploadedFile[]
}

export function accountHandlers(
  state: SandboxState,
  kycApplications: Map<string, KycApplication>,
): Pick<Handlers, AccountCalls> {
  const { users, ledger, settings, messages, publish } = state

  const inferType = (username: string): LoginType =>
    USERNAME_RULES.email.test(username) ? 'email' : USERNAME_RULES.phone.test(username) ? 'phone' : 'account'

  return {
    register: ({ body }) => {
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
        ledger.apply({
          kind: 'bonus',
          note: 'registration credit',
          legs: [
            { pool: 'outside', coin: credit.coin, amount: amount.negated() },
            { userId: user.id, account: 'platform', coin: credit.coin, available: amount },
          ],
        })
      }
      messages.post(
        user.id,
        'welcome',
        `Welcome! ${credit.amount} ${credit.coin.toUpperCase()} has been credited.`,
      )
      return { ...users.openSession(user), credit: credit.amount }
    },

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

    updateUserLoginPwd: ({ user, query }) => {
      if (query.userId !== undefined && query.userId !== user.id) return refuse('notYourAccount')
      changeLoginPassword(user, query.oldPwd, query.newPwd)
      return null
    },

    backPwd: ({ query }) => {
      const user = users.byName(query.email)
      if (!user || user.email?.toLowerCase() !== query.email.toLowerCase()) return refuse('unknownEmail')
      users.useCode(query.email, query.emailCode)
      users.setPassword(user, query.newPwd)
      users.expireSessions(user.id)
      return null
    },

    sendEmailCode: ({ query }) => {
      users.issueCode(query.email)
      return null
    },

    bindEmail: ({ user, query }) => bindContact(user, 'email', query.email, query.emailCode),

    getCountryCode: () => COUNTRY_CODES,

    sendMobileCode: ({ query }) => {
      users.issueCode(query.phone)
      return null
    },

    bindPhone: ({ user, query }) => bindContact(user, 'phone', query.phone, query.code),

    unBindPhone: ({ user, query }) => {
      if (!user.phone) return refuse('phoneNotBound')
      if (user.loginType === 'phone') return refuse('phoneIsLoginName')
      users.useCode(user.phone, query.code)
      users.rename(user, 'phone', undefined)
      return null
    },

    tardPwdSet: ({ user, query }) => {
      if (user.fundPasswordHash !== null) return refuse('fundPasswordAlreadySet')
      if (query.code !== undefined) users.useCode(user.email ?? user.phone ?? '', query.code)
      users.setFundPassword(user, query.pwd)
      return null
    },

    updatePwd: ({ user, query }) => {
      if (query.signType === 'login') {
        changeLoginPassword(user, query.oldPwd, query.newPwd)
        return null
      }
      if (!users.checkFundPassword(user, query.oldPwd)) return refuse('wrongFundPassword')
      users.setFundPassword(user, query.newPwd)
      return null
    },

    uploadKYC: ({ user, query, files }) => {
      const limits = settings.current.AUTH_LIMIT
      const level = query.level === 'primary' ? 1 : 2
      if (level === 1 && !limits.primaryOpen) return refuse('kycClosed')
      if (level === 2 && !limits.seniorOpen) return refuse('kycClosed')
      if (user.kycStatus === 'pending') return refuse('kycPending')
      if (user.kycLevel >= level) return refuse('kycAlreadyApproved')
      if (level === 2 && user.kycLevel < 1) return refuse('primaryKycRequired')
      if (level === 2 && files.length === 0) return refuse('documentRequired')
      if (files.some((file) => !file.mimetype.startsWith('image/'))) return refuse('documentNotImage')
      kycApplications.set(user.id, {
        userId: user.id,
        level,
        realName: query.realName,
        idNumber: query.idNumber,
        ...(query.country ? { country: query.country } : {}),
        files,
      })
      user.kycStatus = 'pending'
      user.kycRequestedLevel = level
      publish('USER_STATUS', user.id, { kycStatus: user.kycStatus, kycLevel: user.kycLevel })
      return { kycStatus: user.kycStatus, kycLevel: user.kycLevel }
    },

    updateWithdrawAddress: ({ user, query }) => {
      if (
        user.withdrawAddresses.some((entry) => entry.address === query.address && entry.type === query.type)
      ) {
        return refuse('addressAlreadySaved')
      }
      users.addWithdrawAddress(user, query.type, query.address)
      return null
    },

    withdrawAddress: ({ user }) => user.withdrawAddresses,

    getInfo: ({ user }) => ({ user: users.toInfo(user), asset: ledger.balances(user.id) }),

    userInfo: ({ user }) => users.toInfo(user),

    inviteInfo: ({ user }) => {
      const rebates = ledger.records(user.id).filter((record) => record.kind === 'rebate')
      const rebateTotal = rebates.reduce((total, record) => total.plus(record.amount), toDecimal(0))
      return {
        inviteCode: user.inviteCode,
        inviteUrl: `${INVITE_URL_BASE}${user.inviteCode}`,
        teamSize: users.invitees(user.id).length,
        rebateTotal: rebateTotal.toFixed(),
      }
    },

    inviteTeam: ({ user, query }) =>
      page(
        users
          .invitees(user.id)
          .map((member) => ({ userId: member.id, username: member.username, createdAt: member.createdAt })),
        query,
      ),
  }

  function changeLoginPassword(user: User, oldPassword: string, newPassword: string): void {
    if (!users.checkPassword(user, oldPassword)) refuse('wrongPassword')
    if (oldPassword === newPassword) refuse('samePassword')
    users.setPassword(user, newPassword)
  }

  /** Binds a not yet bound e-mail or phone once its code checks out. */
  function bindContact(user: User, field: 'email' | 'phone', value: string, code: string): null {
    if (user[field]) return refuse(field === 'email' ? 'emailAlreadyBound' : 'phoneAlreadyBound')
    users.useCode(value, code)
    users.rename(user, field, value)
    return null
  }
}
