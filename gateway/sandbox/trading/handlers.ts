import { toDecimal } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import type { ContractDesk } from './contracts'
import type { CopyDesk } from './copy'
import { positiveAmount } from './rules'
import type { SecondDesk } from './second'
import type { SpotDesk } from './spot'

type TradingCalls =
  | 'spotOrderSubmit'
  | 'spotOrderList'
  | 'spotOrderCancel'
  | 'currencyRecords'
  | 'secondOrderCreate'
  | 'secondOrderList'
  | 'secondRecords'
  | 'contractOrderSubmit'
  | 'contractOrderList'
  | 'contractOrderCancel'
  | 'contractOrderAmend'
  | 'contractMarkInfo'
  | 'tradingRecords'
  | 'positionList'
  | 'positionStop'
  | 'positionAdjustMargin'
  | 'lossList'
  | 'lossSet'
  | 'lossCancel'
  | 'traderList'
  | 'followStart'
  | 'followStop'
  | 'followMine'
  | 'traderApply'

export function tradingHandlers(desks: {
  spot: SpotDesk
  contracts: ContractDesk
  second: SecondDesk
  copy: CopyDesk
}): Pick<Handlers, TradingCalls> {
  const { spot, contracts, second, copy } = desks
  const optionalMoney = (value: string | number | undefined) =>
    value === undefined ? undefined : toDecimal(value)

  return {
    spotOrderSubmit: ({ user, body }) => spot.submit(user, body),
    spotOrderList: ({ user, query }) => page(spot.list(user.id, query), query),
    spotOrderCancel: ({ user, query }) => spot.cancel(user, query.id),
    currencyRecords: ({ user, query }) =>
      page(
        spot.list(user.id, { status: 'filled', ...(query.symbol ? { symbol: query.symbol } : {}) }),
        query,
      ),

    secondOrderCreate: ({ user, body }) => second.create(user, body),
    secondOrderList: ({ user, body }) =>
      page(second.list(user.id, { ...(body.status ? { status: body.status } : {}) }), body),
    secondRecords: ({ user, query }) =>
      page(second.list(user.id, { ...(query.symbol ? { symbol: query.symbol } : {}) }), query),

    contractOrderSubmit: ({ user, body }) => contracts.submit(user, body),
    contractOrderAmend: ({ user, body }) => contracts.amend(user.id, body.id, body),
    contractMarkInfo: ({ query }) => contracts.markInfo(query.symbol),
    contractOrderList: ({ user, query }) => contracts.ordersOf(user.id, query.status),
    contractOrderCancel: ({ user, query }) => {
      contracts.cancel(user.id, Number(query.id))
      return null
    },
    tradingRecords: ({ user, query }) =>
      page(
        contracts.ordersOf(user.id).filter((order) => !query.symbol || order.symbol === query.symbol),
        query,
      ),
    positionList: ({ user, query }) => page(contracts.positionsOf(user.id, query.status), query),
    positionStop: ({ user, query }) =>
      contracts.stop(user.id, Number(query.id), {
        ...(query.shares !== undefined ? { shares: query.shares } : {}),
        ...(query.price !== undefined ? { price: query.price } : {}),
      }),
    positionAdjustMargin: ({ user, query }) =>
      contracts.adjustMargin(user.id, Number(query.id), toDecimal(query.money), query.flag === '1'),
    lossList: ({ user }) => contracts.lossesOf(user.id),
    lossSet: ({ user, body }) =>
      contracts.setLoss(
        user.id,
        body.positionId,
        optionalMoney(body.stopLoss),
        optionalMoney(body.takeProfit),
        body.triggerBy,
      ),
    lossCancel: ({ user, query }) => {
      contracts.cancelLoss(user.id, Number(query.id))
      return null
    },

    traderList: ({ query }) => page(copy.traders(), query),
    followStart: ({ user, body }) => copy.follow(user, body.traderId, positiveAmount(body.amount)),
    followStop: ({ user, query }) => copy.stop(user.id, Number(query.id)),
    followMine: ({ user }) => copy.mine(user.id),
    traderApply: ({ user, body }) => copy.apply(user, body.nickname, positiveAmount(body.amount)),
  }
}
