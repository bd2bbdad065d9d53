import { toDecimal, type CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'
import { CLOCK_SLACK_MS, type Instead } from '../../../lib/submit'

// The lookups that tell an unanswered futures or second-contract action's true outcome (lib/submit.ts):
// each asks the list the action would have changed. They throw when the list cannot be fetched.

const sameAmount = (left: unknown, right: unknown) => toDecimal(left).equals(toDecimal(right))

/** Whether an opening order like the one sent at `sentAt` is on the contract order list. */
export async function findContractOrder(
  order: Pick<CallBody<'contractOrderSubmit'>, 'symbol' | 'direction' | 'shares'>,
  sentAt: number,
): Promise<boolean> {
  const rows = await callApi('contractOrderList', {}, { quiet: true })
  return rows.some(
    (row) =>
      row.positionId === undefined &&
      row.symbol === order.symbol &&
      row.direction === order.direction &&
      sameAmount(row.shares, order.shares) &&
      row.createdAt >= sentAt - CLOCK_SLACK_MS,
  )
}

/**
 * Whether a close of position `id` sent at `sentAt` happened, from the close rows the exchange has
 * written for the position since, each with its reason: the user's close (at market a filled manual
 * close, at a price a close order resting or filled) went through. Without one, a take-profit,
 * stop-loss or liquidation that closed the position first is what happened instead.
 */
export async function findPositionClose(
  position: { id: number },
  limit: boolean,
  sentAt: number,
): Promise<boolean | Instead> {
  const since = sentAt - CLOCK_SLACK_MS
  const orders = await callApi('contractOrderList', {}, { quiet: true })
  const rows = orders.filter((row) => row.positionId === position.id && row.createdAt >= since)
  const own = rows.some((row) =>
    limit ? row.type === 'limit' : row.type === 'market' && row.closeReason === 'manual',
  )
  if (own) return true
  const first = rows.find((row) => row.closeReason !== undefined && row.closeReason !== 'manual')
  return first?.closeReason ? { instead: `submit.closedFirst.${first.closeReason}` } : false
}

/** Whether the position's active take-profit and stop-loss are the ones sent. */
export async function findLossSet(setting: CallBody<'lossSet'>): Promise<boolean> {
  const rows = await callApi('lossList', {}, { quiet: true })
  return rows.some(
    (row) =>
      row.positionId === setting.positionId &&
      row.status === 'active' &&
      sameAmount(row.stopLoss, setting.stopLoss ?? 0) &&
      sameAmount(row.takeProfit, setting.takeProfit ?? 0),
  )
}

/** Whether a second contract like the one sent at `sentAt` is on the user's list. */
export async function findSecondOrder(
  order: Pick<CallBody<'secondOrderCreate'>, 'symbol' | 'direction' | 'amount'>,
  sentAt: number,
): Promise<boolean> {
  const page = await callApi('secondOrderList', { body: { pageNum: 1, pageSize: 30 } }, { quiet: true })
  return page.rows.some(
    (row) =>
      row.symbol === order.symbol &&
      row.direction === order.direction &&
      sameAmount(row.amount, order.amount) &&
      row.createdAt >= sentAt - CLOCK_SLACK_MS,
  )
}

/** Whether take-profit and stop-loss `id` is no longer active (cancelled, or triggered meanwhile). */
export async function findLossCancelled(id: number): Promise<boolean> {
  const rows = await callApi('lossList', {}, { quiet: true })
  return rows.some((row) => row.id === id && row.status !== 'active')
}

/** Whether open position `id` now holds `margin`: an added or removed margin went through. */
export async function findMargin(id: number, margin: string): Promise<boolean> {
  const page = await callApi(
    'positionList',
    { query: { status: 'open', pageNum: '1', pageSize: '50' } },
    { quiet: true },
  )
  return page.rows.some((row) => row.id === id && sameAmount(row.margin, margin))
}

/** Whether order `id` now carries what an amend sent (or has filled, which an amend can cause). */
export async function findOrderAmended(amend: CallBody<'contractOrderAmend'>): Promise<boolean> {
  const rows = await callApi('contractOrderList', {}, { quiet: true })
  const row = rows.find((candidate) => candidate.id === amend.id)
  if (!row) return false
  if (row.status === 'filled') return true
  return (
    (amend.price === undefined || sameAmount(row.price, amend.price)) &&
    (amend.shares === undefined || sameAmount(row.shares, amend.shares)) &&
    (amend.triggerPrice === undefined || sameAmount(row.triggerPrice, amend.triggerPrice))
  )
}
