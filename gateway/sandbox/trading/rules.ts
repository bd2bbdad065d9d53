import type { Decimal } from 'decimal.js'
import { toDecimal, type PlayingKey } from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse, type RefusalKey } from '../api/refusal'
import { AMOUNT_PLACES, truncate } from '../money/amounts'
import type { SandboxState } from '../state'

// Checks every order form shares, and the invite rebates paid out of collected fees.

export function requireTabOpen(state: SandboxState, key: PlayingKey, refusal: RefusalKey): void {
  const tab = state.settings.current.PLAYING_SETTING.find((entry) => entry.key === key)
  if (!tab?.isOpen) refuse(refusal)
}

export function requireFundPassword(
  state: SandboxState,
  user: User,
  needed: boolean,
  fundPwd?: string,
): void {
  if (!needed) return
  if (user.fundPasswordHash === null) refuse('fundPasswordNotSet')
  if (fundPwd === undefined) refuse('fundPasswordRequired')
  if (!state.users.checkFundPassword(user, fundPwd)) refuse('wrongFundPassword')
}

export const HISTORY = 'history'

/**
 * The user's rows, narrowed to a status and a symbol when the filter names them; the status
 * "history" means every row that is no longer open.
 */
export function ownRows<Row extends { userId: string; status: string; symbol: string }>(
  rows: readonly Row[],
  userId: string,
  filter: { status?: string; symbol?: string },
): Row[] {
  return rows.filter(
    (row) =>
      row.userId === userId &&
      (!filter.status ||
        row.status === filter.status ||
        (filter.status === HISTORY && row.status !== 'open')) &&
      (!filter.symbol || row.symbol === filter.symbol),
  )
}

export function requirePlaces(value: Decimal, places: number, refusal: RefusalKey): void {
  if (value.decimalPlaces() > places) refuse(refusal)
}

/** A limit price must lie within these multiples of the market price. */
const PRICE_BAND = { low: '0.2', high: '5' }

export function requirePriceInBand(price: Decimal, market: Decimal): void {
  if (price.lessThan(market.times(PRICE_BAND.low)) || price.greaterThan(market.times(PRICE_BAND.high))) {
    refuse('priceOutOfBand')
  }
}

export function positiveAmount(
  value: string | number,
  refusal: RefusalKey = 'amountMustBePositive',
): Decimal {
  const amount = toDecimal(value)
  return amount.greaterThan(0) ? amount : refuse(refusal)
}

/** When financial rebates are on, each inviter up the chain gets its ratio (percent) of the fee. */
export function payFeeRebates(state: SandboxState, payerId: string, coin: string, fee: Decimal): void {
  const rebate = state.settings.current.FINANCIAL_REBATE
  if (!rebate.enabled || !fee.greaterThan(0)) return
  let inviterId = state.users.byUserId(payerId)?.invitedBy ?? null
  for (const ratio of rebate.ratios) {
    if (!inviterId) return
    const share = truncate(fee.times(ratio).dividedBy(100), AMOUNT_PLACES)
    if (share.greaterThan(0) && state.ledger.pool('fees', coin).greaterThanOrEqualTo(share)) {
      state.ledger.apply({
        kind: 'rebate',
        note: `invite rebate from user ${payerId}`,
        legs: [
          { pool: 'fees', coin, amount: share.negated() },
          { userId: inviterId, account: 'platform', coin, available: share },
        ],
      })
    }
    inviterId = state.users.byUserId(inviterId)?.invitedBy ?? null
  }
}
