import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import { positiveAmount } from '../trading/rules'
import { text } from './amounts'
import { localDayStart } from './calendar'
import { knownCoin } from './coin-inputs'
import { coinPlacesOf, requireCoinPlaces } from './precision'

// Balances, transfers between a user's own accounts, and the day's and all-time profit.

type BalanceCalls = 'assetBalance' | 'transferFunds' | 'getProfit' | 'userNotices'

export function balanceHandlers(state: SandboxState): Pick<Handlers, BalanceCalls> {
  const { ledger, market, settings } = state
  const placesOf = coinPlacesOf(state)

  return {
    assetBalance: ({ user }) => ledger.balances(user.id),
    userNotices: ({ user, query }) => state.notices.since(user.id, Number(query.since ?? 0)),

    transferFunds: ({ user, body }) => {
      if (body.from === body.to) return refuse('sameAccount')
      const coin = knownCoin(market, body.coin)
      const amount = positiveAmount(body.amount)
      requireCoinPlaces(amount, placesOf(coin))
      ledger.apply({
        kind: 'transfer',
        note: `${body.from} to ${body.to}`,
        legs: [
          { userId: user.id, account: body.from, coin, available: amount.negated() },
          { userId: user.id, account: body.to, coin, available: amount },
        ],
      })
      return null
    },

    getProfit: ({ user }) => {
      const start = localDayStart(state.clock(), settings.current.DEFAULT_TIME_ZONE.offset)
      return {
        today: text(state.profits.since(user.id, start)),
        total: text(state.profits.since(user.id, 0)),
      }
    },
  }
}
