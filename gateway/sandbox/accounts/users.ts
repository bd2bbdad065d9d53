import { createHash, randomBytes, randomInt } from 'node:crypto'
import type { Session, UserInfo } from '@tradegate/shared'
import { refuse } from '../api/refusal'

// Users, their sessions and the verification codes the sandbox "sends".

export type LoginType = 'email' | 'phone' | 'account' | 'address'
export type KycStatus = UserInfo['kycStatus']

export interface WithdrawAddress {
  id: number
  type: string
  address: string
}

export interface User {
  id: string
  username: string
  loginType: LoginType
  passwordHash: string
  fundPasswordHash: string | null
  email?: string
  phone?: string
  inviteCode: string
  invitedBy: string | null
  kycLevel: number
  kycStatus: KycStatus
  /** the level a pending KYC application asks for */
  kycRequestedLevel: number
  withdrawAddresses: WithdrawAddress[]
  createdAt: number
}

const SESSION_MS = 24 * 3600_000
const LOGIN_KEY_MS = 30 * 24 * 3600_000
const CODE_MS = 10 * 60_000
const FIRST_USER_ID = 10001
/** The invite code of the sandbox's own first account, so the first real user can register. */
export const ROOT_INVITE_CODE = 'SANDBOX'

interface SessionEntry {
  userId: string
  expiresAt: number
  loginKey: string
}

export class UserDirectory {
  private readonly byId = new Map<string, User>()
  private readonly byUsername = new Map<string, User>()
  private readonly byInviteCode = new Map<string, User>()
  private readonly sessions = new Map<string, SessionEntry>()
  private readonly loginKeys = new Map<string, { userId: string; expiresAt: number }>()
  private readonly codes = new Map<string, { code: string; expiresAt: number }>()
  private nextId = FIRST_USER_ID
  private nextAddressId = 1

  constructor(private readonly clock: () => number) {}

  create(fields: {
    username: string
    loginType: LoginType
    password: string
    invitedBy: string | null
    inviteCode?: string
  }): User {
    if (this.byUsername.has(normalise(fields.username))) refuse('usernameTaken')
    const user: User = {
      id: String(this.nextId++),
      username: fields.username,
      loginType: fields.loginType,
      passwordHash: hashPassword(fields.password),
      fundPasswordHash: null,
      inviteCode: fields.inviteCode ?? this.newInviteCode(),
      invitedBy: fields.invitedBy,
      kycLevel: 0,
      kycStatus: 'none',
      kycRequestedLevel: 0,
      withdrawAddresses: [],
      createdAt: this.clock(),
    }
    if (fields.loginType === 'email') user.email = fields.username
    if (fields.loginType === 'phone') user.phone = fields.username
    this.byId.set(user.id, user)
    this.byUsername.set(normalise(user.username), user)
    this.byInviteCode.set(user.inviteCode.toUpperCase(), user)
    return user
  }

  get all(): IterableIterator<User> {
    return this.byId.values()
  }

  byUserId(userId: string): User | undefined {
    return this.byId.get(userId)
  }

  byName(username: string): User | undefined {
    return this.byUsername.get(normalise(username))
  }

  /** A user by id or by username, for the control calls. */
  find(reference: { userId?: string; username?: string }): User {
    const user = reference.userId ? this.byId.get(reference.userId) : this.byName(reference.username ?? '')
    return user ?? refuse('unknownUser')
  }

  byInvite(code: string): User | undefined {
    return this.byInviteCode.get(code.toUpperCase())
  }

  invitees(userId: string): User[] {
    return [...this.byId.values()].filter((user) => user.invitedBy === userId)
  }

  checkPassword(user: User, password: string): boolean {
    return user.passwordHash === hashPassword(password)
  }

  setPassword(user: User, password: string): void {
    user.passwordHash = hashPassword(password)
  }

  checkFundPassword(user: User, password: string): boolean {
    return user.fundPasswordHash !== null && user.fundPasswordHash === hashPassword(password)
  }

  setFundPassword(user: User, password: string): void {
    user.fundPasswordHash = hashPassword(password)
  }

  /** Identifies the user index under an e-mail or phone a user has bound since registering. */
  rename(user: User, field: 'email' | 'phone', value: string | undefined): void {
    if (value !== undefined) {
      const owner = this.byName(value)
      if (owner && owner !== user) refuse(field === 'email' ? 'emailTaken' : 'phoneTaken')
    }
    const previous = user[field]
    if (previous && previous !== user.username) this.byUsername.delete(normalise(previous))
    if (value === undefined) delete user[field]
    else {
      user[field] = value
      this.byUsername.set(normalise(value), user)
    }
  }

  addWithdrawAddress(user: User, type: string, address: string): WithdrawAddress {
    const entry = { id: this.nextAddressId++, type, address }
    user.withdrawAddresses.push(entry)
    return entry
  }

  openSession(user: User, loginKey?: string): Session {
    const now = this.clock()
    const key = loginKey ?? randomBytes(24).toString('hex')
    this.loginKeys.set(key, { userId: user.id, expiresAt: now + LOGIN_KEY_MS })
    const satoken = randomBytes(24).toString('hex')
    const expiresAt = now + SESSION_MS
    this.sessions.set(satoken, { userId: user.id, expiresAt, loginKey: key })
    return { satoken, userId: user.id, loginKey: key, expiresAt }
  }

  /** A fresh session for a stored login key; the key stays valid until logout or expiry. */
  resumeSession(loginKey: string): Session {
    const entry = this.loginKeys.get(loginKey)
    if (!entry || entry.expiresAt <= this.clock()) return refuse('invalidLoginKey')
    const user = this.byId.get(entry.userId) ?? refuse('invalidLoginKey')
    return this.openSession(user, loginKey)
  }

  userOfToken(satoken: string | undefined): User | undefined {
    if (!satoken) return undefined
    const entry = this.sessions.get(satoken)
    if (!entry) return undefined
    if (entry.expiresAt <= this.clock()) {
      this.sessions.delete(satoken)
      return undefined
    }
    return this.byId.get(entry.userId)
  }

  closeSession(satoken: string): void {
    const entry = this.sessions.get(satoken)
    if (!entry) return
    this.sessions.delete(satoken)
    this.loginKeys.delete(entry.loginKey)
  }

  /** Every session and login key of the user stops working (control call and password changes). */
  expireSessions(userId: string, except?: string): number {
    let count = 0
    for (const [token, entry] of this.sessions) {
      if (entry.userId !== userId || token === except) continue
      this.sessions.delete(token)
      this.loginKeys.delete(entry.loginKey)
      count++
    }
    return count
  }

  issueCode(target: string): void {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
    this.codes.set(normalise(target), { code, expiresAt: this.clock() + CODE_MS })
  }

  /** Codes are single use: a correct code is spent, a wrong one is not. */
  useCode(target: string, code: string | undefined): void {
    const entry = this.codes.get(normalise(target))
    if (!entry || entry.expiresAt <= this.clock()) return refuse('codeExpired')
    if (entry.code !== code) return refuse('wrongCode')
    this.codes.delete(normalise(target))
  }

  lastCode(target: string): string | undefined {
    return this.codes.get(normalise(target))?.code
  }

  toInfo(user: User): UserInfo {
    const last = user.withdrawAddresses.at(-1)
    return {
      userId: user.id,
      username: user.username,
      ...(user.email ? { email: user.email } : {}),
      ...(user.phone ? { phone: user.phone } : {}),
      inviteCode: user.inviteCode,
      hasFundPassword: user.fundPasswordHash !== null,
      kycLevel: user.kycLevel,
      kycStatus: user.kycStatus,
      vipLevel: 0,
      withdrawAddress: last ? { address: last.address, type: last.type } : { address: '' },
      createdAt: user.createdAt,
    }
  }

  private newInviteCode(): string {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
    for (;;) {
      const code = Array.from({ length: 8 }, () => alphabet[randomInt(alphabet.length)]).join('')
      if (!this.byInviteCode.has(code)) return code
    }
  }
}

function normalise(name: string): string {
  return name.trim().toLowerCase()
}

function hashPassword(password: string): string {
  // a fixed salt is enough for an in-memory stand-in; the point is that plain text is never stored
  return createHash('sha256').update(`tradegate-sandbox:${password}`).digest('hex')
}
