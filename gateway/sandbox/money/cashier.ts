import { createHash } from 'node:crypto'
import type { Decimal } from 'decimal.js'
import { checkAddress, networkRule, toDecimal, withdrawalFee, type MoneyRequest } from '@tradegate/shared'
import { refuse } from '../api/refusal'
import type { User } from '../accounts/users'
import { idSequence, type SandboxState } from '../state'
import { ZERO, text } from './amounts'
import { holdLeg, releaseLeg } from './ledger'
import { requireCoinPlaces } from './precision'
import { localDayStart, localTimeOfDay, withinWindow } from './calendar'

// Deposits and withdrawals: the only ways money enters or leaves the sandbox besides credits.

/** A new withdrawal sits frozen this long before it waits for review. */
const FROZEN_MS = 1000

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
/** Chains whose transaction hashes are written with a 0x prefix. */
const EVM_CHAINS = new Set(['ERC20', 'BEP20', 'ETH', 'ARBITRUM', 'POLYGON', 'OPTIMISM'])

export interface WithdrawalRequest extends MoneyRequest {
  userId: string
}

export interface Channel {
  coin: string
  chain: string
  min: string
  max: string
  count: number
}

export class Cashier {
  private readonly recharges: WithdrawalRequest[] = []
  private readonly withdrawals: WithdrawalRequest[] = []
  private readonly nextId = idSequence()
  private nextHash = 1

  constructor(private readonly state: SandboxState) {}

  channels(): Channel[] {
    return this.state.settings.current.RECHARGE_SETTING
  }

  channel(coin: string, chain?: string): Channel {
    const match = this.channels().find(
      (row) => row.coin === coin && (chain === undefined || row.chain === chain),
    )
    return match ?? refuse(chain ? 'unsupportedChain' : 'unsupportedCoin')
  }

  /** A stable made-up address per user, coin and chain, in the format of the chain. */
  depositAddress(userId: string, coin: string, chain: string): string {
    const digest = createHash('sha256').update(`${userId}:${coin}:${chain}`).digest()
    const spell = (alphabet: string, length: number) =>
      Array.from({ length }, (_, index) => alphabet[digest[index % digest.length]! % alphabet.length]).join(
        '',
      )
    if (chain.startsWith('TRC')) return `T${spell(BASE58, 33)}`
    if (chain === 'BTC') return `bc1q${spell(BECH32, 38)}`
    if (chain === 'XRP') return `r${spell(BASE58, 33)}`
    return `0x${digest.toString('hex').slice(0, 40)}`
  }

  /**
   * The destination tag of a user's deposits on a network that takes one (XRP): the exchange's
   * address there is shared, and the tag tells whose deposit arrived. Undefined on other networks.
   */
  depositMemo(userId: string, chain: string): string | undefined {
    if (networkRule(chain)?.memo?.kind !== 'tag') return undefined
    const digest = createHash('sha256').update(`${userId}:tag:${chain}`).digest()
    // nine digits, never a leading zero: within the ten a tag may have
    return String(100_000_000 + (digest.readUInt32BE(0) % 900_000_000))
  }

  /** A made-up transaction hash in the chain's format: 0x and 64 hex digits on EVM chains, else 64 hex digits. */
  private transactionHash(chain: string): string {
    const digest = createHash('sha256')
      .update(`${chain}:${this.nextHash++}:${this.state.clock()}`)
      .digest('hex')
    return EVM_CHAINS.has(chain) ? `0x${digest}` : digest
  }

  /** The network a coin arrives on when nobody named one: its first deposit channel, else its own chain. */
  private defaultChain(coin: string): string {
    return this.channels().find((row) => row.coin === coin)?.chain ?? coin.toUpperCase()
  }

  /** An incoming transfer seen on chain: credited at once. */
  deposit(user: User, coin: string, amount: Decimal, note = 'deposit'): WithdrawalRequest {
    if (!amount.greaterThan(0)) refuse('amountMustBePositive')
    this.state.ledger.apply({
      kind: 'deposit',
      note,
      legs: [
        { pool: 'outside', coin, amount: amount.negated() },
        { userId: user.id, account: 'platform', coin, available: amount },
      ],
      notices: [{ userId: user.id, kind: 'deposit', coin, amount: text(amount) }],
    })
    const chain = this.defaultChain(coin)
    const request = this.request(user.id, coin, amount, ZERO, 'completed', '', {
      chain,
      txHash: this.transactionHash(chain),
    })
    this.recharges.unshift(request)
    this.state.messages.post(user.id, 'depositCredited', `${text(amount)} ${coin.toUpperCase()} credited.`)
    return request
  }

  /** A deposit the user reports, with the transaction hash they saw when they give one. */
  submitRecharge(
    user: User,
    coin: string,
    amount: Decimal,
    chain?: string,
    txHash?: string,
  ): WithdrawalRequest {
    const channel = this.channel(coin, chain)
    if (amount.lessThan(channel.min)) refuse('rechargeBelowMinimum')
    if (amount.greaterThan(channel.max)) refuse('rechargeAboveMaximum')
    const address = this.depositAddress(user.id, coin, channel.chain)
    const request = this.request(user.id, coin, amount, ZERO, 'pending', address, {
      chain: channel.chain,
      ...(txHash ? { txHash } : {}),
    })
    this.recharges.unshift(request)
    return request
  }

  /** The operator's answer to a submitted recharge: approval credits it. */
  reviewRecharge(id: number, approve: boolean): WithdrawalRequest {
    const request = this.recharges.find((row) => row.id === id) ?? refuse('unknownRecharge')
    if (request.status !== 'pending') refuse('alreadyReviewed')
    if (approve) {
      const amount = toDecimal(request.amount)
      this.state.ledger.apply({
        kind: 'deposit',
        note: `recharge #${id}`,
        legs: [
          { pool: 'outside', coin: request.coin, amount: amount.negated() },
          { userId: request.userId, account: 'platform', coin: request.coin, available: amount },
        ],
        notices: [{ userId: request.userId, kind: 'deposit', coin: request.coin, amount: text(amount) }],
      })
    }
    request.status = approve ? 'completed' : 'rejected'
    return request
  }

  rechargesOf(userId: string): WithdrawalRequest[] {
    return this.recharges.filter((row) => row.userId === userId)
  }

  withdrawalsOf(userId: string): WithdrawalRequest[] {
    return this.withdrawals.filter((row) => row.userId === userId)
  }

  withdrawStatus(userId: string) {
    const rules = this.state.settings.current.WITHDRAWAL_SETTING
    const usedToday = this.usedToday(userId)
    return {
      open: this.windowOpen(),
      usedToday,
      dayCount: rules.dayCount,
      freeLeft: Math.max(0, rules.freeCount - usedToday),
    }
  }

  submitWithdrawal(
    user: User,
    input: {
      coin: string
      amount: Decimal
      address: string
      memo?: string
      pwd: string
      chain?: string
      /** the coin's precision: the amount may not be finer, and the fee is cut to it */
      places: number
    },
  ): WithdrawalRequest {
    const settings = this.state.settings.current
    const rules = settings.WITHDRAWAL_SETTING
    const channel = this.channel(input.coin, input.chain)
    // held to the network it goes to, named or the coin's default one
    const addressProblem = checkAddress(channel.chain, input.address, input.memo ?? '')
    if (addressProblem) refuse(addressProblem)
    requireCoinPlaces(input.amount, input.places)
    const usesFundPassword =
      settings.FUND_PASSWORD_SETTING.withdraw || settings.VERIFY_CODE_SETTING.withdrawPassword
    if (usesFundPassword) {
      if (user.fundPasswordHash === null) refuse('fundPasswordNotSet')
      if (!this.state.users.checkFundPassword(user, input.pwd)) refuse('wrongFundPassword')
    } else if (!this.state.users.checkPassword(user, input.pwd)) refuse('wrongPassword')
    if (!this.windowOpen()) refuse('withdrawOutsideWindow')
    // the platform-wide limits are in the tax coin; other coins use their channel's limits
    const [min, max] = input.coin === rules.coinTax ? [rules.min, rules.max] : [channel.min, channel.max]
    if (!input.amount.greaterThan(0) || input.amount.lessThan(min)) refuse('withdrawBelowMinimum')
    if (input.amount.greaterThan(max)) refuse('withdrawAboveMaximum')
    const usedToday = this.usedToday(user.id)
    if (usedToday >= rules.dayCount) refuse('withdrawDailyLimitReached')
    const fee = withdrawalFee(input.amount, rules.ratio, rules.freeCount - usedToday, input.places)

    const request = this.request(user.id, input.coin, input.amount, fee, 'frozen', input.address, {
      chain: channel.chain,
    })
    this.state.ledger.apply({
      kind: 'withdraw',
      note: `withdrawal #${request.id} frozen`,
      legs: [holdLeg(user.id, 'platform', input.coin, input.amount)],
    })
    this.withdrawals.unshift(request)
    return request
  }

  reviewWithdrawal(id: number, approve: boolean): WithdrawalRequest {
    const request = this.withdrawals.find((row) => row.id === id) ?? refuse('unknownWithdrawal')
    if (request.status !== 'frozen' && request.status !== 'pending') refuse('alreadyReviewed')
    const amount = toDecimal(request.amount)
    const fee = toDecimal(request.fee)
    const wallet = { userId: request.userId, account: 'platform' as const, coin: request.coin }
    const reviewed = {
      userId: request.userId,
      kind: 'withdrawalReviewed' as const,
      coin: request.coin,
      amount: request.amount,
      outcome: approve ? 'approved' : 'rejected',
    }
    if (approve) {
      this.state.ledger.apply({
        kind: 'withdraw',
        note: `withdrawal #${id} paid out`,
        legs: [
          { ...wallet, frozen: amount.negated() },
          { pool: 'fees', coin: request.coin, amount: fee },
          { pool: 'outside', coin: request.coin, amount: amount.minus(fee) },
        ],
        notices: [reviewed],
      })
    } else {
      this.state.ledger.apply({
        kind: 'withdraw',
        note: `withdrawal #${id} rejected`,
        legs: [releaseLeg(request.userId, 'platform', request.coin, amount)],
        notices: [reviewed],
      })
    }
    request.status = approve ? 'completed' : 'rejected'
    if (approve) request.txHash = this.transactionHash(request.chain ?? this.defaultChain(request.coin))
    this.state.messages.post(
      request.userId,
      approve ? 'withdrawCompleted' : 'withdrawRejected',
      `Withdrawal #${id}`,
    )
    return request
  }

  /** Frozen withdrawals move on to wait for review. */
  onTick(now: number): void {
    for (const request of this.withdrawals) {
      if (request.status === 'frozen' && now - request.createdAt >= FROZEN_MS) request.status = 'pending'
    }
  }

  private usedToday(userId: string): number {
    const start = localDayStart(this.state.clock(), this.offsetHours())
    return this.withdrawals.filter(
      (row) => row.userId === userId && row.createdAt >= start && row.status !== 'rejected',
    ).length
  }

  private windowOpen(): boolean {
    const rules = this.state.settings.current.WITHDRAWAL_SETTING
    const time = localTimeOfDay(this.state.clock(), this.offsetHours())
    return withinWindow(time, rules.startTime, rules.endTime)
  }

  private offsetHours(): number {
    return this.state.settings.current.DEFAULT_TIME_ZONE.offset
  }

  private request(
    userId: string,
    coin: string,
    amount: Decimal,
    fee: Decimal,
    status: MoneyRequest['status'],
    address: string,
    where: { chain: string; txHash?: string },
  ): WithdrawalRequest {
    return {
      ...where,
      id: this.nextId(),
      userId,
      coin,
      amount: text(amount),
      fee: text(fee),
      address,
      status,
      createdAt: this.state.clock(),
    }
  }
}

/** The row as the API shows it, without the owner. */
export function publicRequest({ userId: _owner, ...row }: WithdrawalRequest): MoneyRequest {
  return row
}
