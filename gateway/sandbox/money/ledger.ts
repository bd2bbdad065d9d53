import type { Decimal } from 'decimal.js'
import type { AccountType, Balance, FinancialRecord, RecordKind, UserNotice } from '@tradegate/shared'
import type { NoticeFields, NoticeLog } from '../accounts/notices'
import { refuse } from '../api/refusal'
import { ZERO, text } from './amounts'

// Double-entry book of every balance: each movement's legs sum to zero per coin, so money is only
// ever moved, never made. Users, the house (counterparty of every trade), collected fees and the
// outside world (deposits, credits and withdrawals) are the only places money can be.

export const ACCOUNTS: readonly AccountType[] = ['platform', 'financial', 'contract']

export type Pool = 'house' | 'fees' | 'outside'

export interface UserLeg {
  userId: string
  account: AccountType
  coin: string
  available?: Decimal
  frozen?: Decimal
}

export interface PoolLeg {
  pool: Pool
  coin: string
  amount: Decimal
}

export type Leg = UserLeg | PoolLeg

/** Moves `amount` of a user's wallet from available to frozen, held for an open order or request. */
export function holdLeg(userId: string, account: AccountType, coin: string, amount: Decimal): UserLeg {
  return { userId, account, coin, available: amount.negated(), frozen: amount }
}

/** Gives a held `amount` back from frozen to available. */
export function releaseLeg(userId: string, account: AccountType, coin: string, amount: Decimal): UserLeg {
  return { userId, account, coin, available: amount, frozen: amount.negated() }
}

export interface Movement {
  /** the record filters use it and the client translates it */
  kind: RecordKind
  note: string
  legs: Leg[]
  /** events to tell users about once the movement stands, each in that user's first balance frame */
  notices?: Array<NoticeFields & { userId: string }>
}

export interface Wallet {
  available: Decimal
  frozen: Decimal
}

export interface UserRecord extends FinancialRecord {
  userId: string
}

/** What moved a balance: the movement's kind and the change in what the user can spend. */
export interface BalanceChange {
  kind: RecordKind
  change: string
  /** what happened, on the first balance frame of a movement that tells the user of an event */
  event?: UserNotice
}

export type BalanceListener = (userId: string, balance: Balance, cause: BalanceChange) => void

export class Ledger {
  private readonly wallets = new Map<string, Wallet>()
  private readonly pools = new Map<string, Decimal>()
  private readonly recordsByUser = new Map<string, UserRecord[]>()
  private nextRecordId = 1

  constructor(
    private readonly clock: () => number,
    private readonly onBalance: BalanceListener = () => {},
    private readonly notices?: NoticeLog,
  ) {}

  wallet(userId: string, account: AccountType, coin: string): Wallet {
    return this.wallets.get(walletKey(userId, account, coin)) ?? { available: ZERO, frozen: ZERO }
  }

  available(userId: string, account: AccountType, coin: string): Decimal {
    return this.wallet(userId, account, coin).available
  }

  /** Every wallet the user holds, with usdt listed in each account even when empty. */
  balances(userId: string, alwaysListed = 'usdt'): Balance[] {
    const rows: Balance[] = []
    const prefix = `${userId}|`
    for (const account of ACCOUNTS) {
      if (!this.wallets.has(walletKey(userId, account, alwaysListed))) {
        rows.push(toBalance(account, alwaysListed, { available: ZERO, frozen: ZERO }))
      }
    }
    for (const [key, wallet] of this.wallets) {
      if (!key.startsWith(prefix)) continue
      const [, account, coin] = key.split('|') as [string, AccountType, string]
      rows.push(toBalance(account, coin, wallet))
    }
    return rows.sort((a, b) => a.account.localeCompare(b.account) || a.coin.localeCompare(b.coin))
  }

  /** Applies all legs or none: a movement that would leave any wallet negative is refused whole. */
  apply(movement: Movement): void {
    const net = new Map<string, Decimal>()
    const nextWallets = new Map<string, Wallet>()
    for (const leg of movement.legs) {
      if ('pool' in leg) {
        net.set(leg.coin, (net.get(leg.coin) ?? ZERO).plus(leg.amount))
        continue
      }
      const key = walletKey(leg.userId, leg.account, leg.coin)
      const before = nextWallets.get(key) ?? this.wallet(leg.userId, leg.account, leg.coin)
      const after = {
        available: before.available.plus(leg.available ?? ZERO),
        frozen: before.frozen.plus(leg.frozen ?? ZERO),
      }
      if (after.available.isNegative() || after.frozen.isNegative()) refuse('insufficientBalance')
      nextWallets.set(key, after)
      net.set(leg.coin, (net.get(leg.coin) ?? ZERO).plus(leg.available ?? ZERO).plus(leg.frozen ?? ZERO))
    }
    for (const [coin, total] of net) {
      if (!total.isZero()) throw new Error(`unbalanced ${movement.kind} movement in ${coin}: ${text(total)}`)
    }

    const availableBefore = new Map<string, Decimal>()
    for (const key of nextWallets.keys()) {
      const [userId, account, coin] = key.split('|') as [string, AccountType, string]
      availableBefore.set(key, this.available(userId, account, coin))
    }
    const createdAt = this.clock()
    for (const leg of movement.legs) {
      if ('pool' in leg) {
        const key = `${leg.pool}|${leg.coin}`
        this.pools.set(key, (this.pools.get(key) ?? ZERO).plus(leg.amount))
        continue
      }
      const key = walletKey(leg.userId, leg.account, leg.coin)
      const wallet = this.wallet(leg.userId, leg.account, leg.coin)
      const available = wallet.available.plus(leg.available ?? ZERO)
      const frozen = wallet.frozen.plus(leg.frozen ?? ZERO)
      this.wallets.set(key, { available, frozen })
      // paying out of a hold is not a second movement: the hold already showed the money leaving
      if ((leg.available ?? ZERO).isZero()) continue
      const totalChange = (leg.available ?? ZERO).plus(leg.frozen ?? ZERO)
      this.record(leg.userId, {
        id: this.nextRecordId++,
        coin: leg.coin,
        account: leg.account,
        // a pure freeze or release shows as the change in what the user can spend
        amount: text(totalChange.isZero() ? (leg.available ?? ZERO) : totalChange),
        balanceAfter: text(available),
        kind: movement.kind,
        note: movement.note,
        createdAt,
        userId: leg.userId,
      })
    }
    const events = new Map<string, UserNotice>()
    for (const { userId, ...fields } of movement.notices ?? []) {
      if (this.notices) events.set(userId, this.notices.add(userId, fields))
    }
    for (const key of nextWallets.keys()) {
      const [userId, account, coin] = key.split('|') as [string, AccountType, string]
      const wallet = this.wallet(userId, account, coin)
      const change = wallet.available.minus(availableBefore.get(key) ?? ZERO)
      const event = events.get(userId)
      events.delete(userId)
      this.onBalance(userId, toBalance(account, coin, wallet), {
        kind: movement.kind,
        change: text(change),
        ...(event ? { event } : {}),
      })
    }
  }

  /** Newest first. */
  records(userId: string): readonly UserRecord[] {
    return this.recordsByUser.get(userId) ?? []
  }

  pool(pool: Pool, coin: string): Decimal {
    return this.pools.get(`${pool}|${coin}`) ?? ZERO
  }

  /** Per coin: what users hold, what the house and fee pools hold, and what came in from outside. */
  audit(): Record<string, { users: string; house: string; fees: string; inflow: string }> {
    const users = new Map<string, Decimal>()
    for (const [key, wallet] of this.wallets) {
      const coin = key.split('|')[2] ?? ''
      users.set(coin, (users.get(coin) ?? ZERO).plus(wallet.available).plus(wallet.frozen))
    }
    const coins = new Set([...users.keys(), ...[...this.pools.keys()].map((key) => key.split('|')[1] ?? '')])
    const result: Record<string, { users: string; house: string; fees: string; inflow: string }> = {}
    for (const coin of coins) {
      result[coin] = {
        users: text(users.get(coin) ?? ZERO),
        house: text(this.pool('house', coin)),
        fees: text(this.pool('fees', coin)),
        inflow: text(this.pool('outside', coin).negated()),
      }
    }
    return result
  }

  private record(userId: string, row: UserRecord): void {
    let rows = this.recordsByUser.get(userId)
    if (!rows) this.recordsByUser.set(userId, (rows = []))
    rows.unshift(row)
  }
}

function walletKey(userId: string, account: AccountType, coin: string): string {
  return `${userId}|${account}|${coin}`
}

function toBalance(account: AccountType, coin: string, wallet: Wallet): Balance {
  return { coin, account, available: text(wallet.available), frozen: text(wallet.frozen) }
}
