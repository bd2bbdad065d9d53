import { toDecimal, type MoneyRequest } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import { positiveAmount } from '../trading/rules'
import { publicRequest, type Cashier, type WithdrawalRequest } from './cashier'
import { coinPlacesOf } from './precision'

// Deposits and withdrawals: the channels they travel on, deposit addresses, requests and their lists.

type CashierCalls =
  | 'getAppCurrencyList'
  | 'getWithDrawCoinList'
  | 'payAddress'
  | 'rechargeSubmit'
  | 'rechargeList'
  | 'rechargeAddress'
  | 'withdrawFreezeList'
  | 'withdrawSubmit'
  | 'withdrawList'
  | 'withdrawStatus'

/** A user's requests as the lists show them: of one coin when the query names one, public fields only. */
function ofCoin(requests: WithdrawalRequest[], coin: string | undefined): MoneyRequest[] {
  return requests.filter((row) => !coin || row.coin === coin.toLowerCase()).map(publicRequest)
}

export function cashierHandlers(state: SandboxState, cashier: Cashier): Pick<Handlers, CashierCalls> {
  return { ...depositHandlers(cashier), ...withdrawalHandlers(state, cashier) }
}

function depositHandlers(
  cashier: Cashier,
): Pick<
  Handlers,
  'getAppCurrencyList' | 'payAddress' | 'rechargeSubmit' | 'rechargeList' | 'rechargeAddress'
> {
  return {
    getAppCurrencyList: () =>
      cashier.channels().map((channel) => ({
        coinName: `${channel.coin.toUpperCase()}-${channel.chain}`,
        coin: channel.coin,
        coinAddress: '',
        rechargeMin: channel.min,
        rechargeMax: channel.max,
        rechargeNum: channel.count,
        useSys: true,
        useThird: false,
        thirdList: [],
      })),

    payAddress: ({ user, body }) => {
      const channel = cashier.channel(body.coin.toLowerCase(), body.chain)
      const memo = cashier.depositMemo(user.id, channel.chain)
      return {
        coin: channel.coin,
        chain: channel.chain,
        address: cashier.depositAddress(user.id, channel.coin, channel.chain),
        ...(memo ? { memo } : {}),
      }
    },

    rechargeSubmit: ({ user, body }) =>
      publicRequest(
        cashier.submitRecharge(
          user,
          body.coin.toLowerCase(),
          positiveAmount(body.amount),
          body.chain,
          body.txHash,
        ),
      ),

    rechargeList: ({ user, query }) => page(ofCoin(cashier.rechargesOf(user.id), query.coin), query),

    rechargeAddress: ({ user, query }) => {
      const coin = query.coin.toLowerCase()
      const channels = cashier.channels().filter((row) => row.coin === coin)
      const chosen = query.symbol ? channels.filter((row) => row.chain === query.symbol) : channels
      if (chosen.length === 0) return refuse(channels.length ? 'unsupportedChain' : 'unsupportedCoin')
      const addresses: Record<string, string> = {}
      for (const channel of chosen) {
        addresses[`${coin}-${channel.chain}`] = cashier.depositAddress(user.id, coin, channel.chain)
      }
      // keyed by the bare coin name too: the client looks it up that way
      addresses[coin] = cashier.depositAddress(user.id, coin, chosen[0]!.chain)
      return addresses
    },
  }
}

function withdrawalHandlers(
  state: SandboxState,
  cashier: Cashier,
): Pick<
  Handlers,
  'getWithDrawCoinList' | 'withdrawFreezeList' | 'withdrawSubmit' | 'withdrawList' | 'withdrawStatus'
> {
  const placesOf = coinPlacesOf(state)
  return {
    getWithDrawCoinList: () => {
      const rules = state.settings.current.WITHDRAWAL_SETTING
      return cashier.channels().map((channel) => {
        const isTaxCoin = channel.coin === rules.coinTax
        return {
          rechargeName: `${channel.coin.toUpperCase()}-${channel.chain}`,
          rechargeType: channel.chain,
          fee: '0',
          ratio: rules.ratio,
          dayWithdrawalNum: rules.dayCount,
          freeNum: rules.freeCount,
          withdrawalMax: isTaxCoin ? rules.max : channel.max,
          withdrawalMix: isTaxCoin ? rules.min : channel.min,
          useSys: true,
          useThird: false,
          thirdList: [],
        }
      })
    },

    withdrawFreezeList: ({ user }) =>
      cashier
        .withdrawalsOf(user.id)
        .filter((row) => row.status === 'frozen' || row.status === 'pending')
        .map(publicRequest),

    withdrawSubmit: ({ user, query }) =>
      publicRequest(
        cashier.submitWithdrawal(user, {
          coin: query.coin.toLowerCase(),
          amount: toDecimal(query.amount),
          address: query.address,
          pwd: query.pwd,
          places: placesOf(query.coin.toLowerCase()),
          ...(query.memo ? { memo: query.memo } : {}),
          ...(query.chain ? { chain: query.chain } : {}),
        }),
      ),

    withdrawList: ({ user, query }) => page(ofCoin(cashier.withdrawalsOf(user.id), query.coin), query),

    withdrawStatus: ({ user }) => cashier.withdrawStatus(user.id),
  }
}
