import { toDecimal, type CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'
import { CLOCK_SLACK_MS } from '../../../lib/submit'

type SentOrder = Pick<CallBody<'spotOrderSubmit'>, 'symbol' | 'side' | 'type' | 'amount'>

/**
 * Whether an order like the one sent at `sentAt` is on the user's order list: the lookup that tells
 * an unanswered submit's true outcome. Throws when the list cannot be fetched (outcome unknown).
 */
export async function findSpotOrder(order: SentOrder, sentAt: number): Promise<boolean> {
  const page = await callApi(
    'spotOrderList',
    { query: { symbol: order.symbol, pageNum: '1', pageSize: '30' } },
    { quiet: true },
  )
  return page.rows.some(
    (row) =>
      row.side === order.side &&
      row.type === order.type &&
      toDecimal(row.amount).equals(toDecimal(order.amount)) &&
      row.createdAt >= sentAt - CLOCK_SLACK_MS,
  )
}
