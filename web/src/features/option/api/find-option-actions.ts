import { toDecimal, type CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'
import { CLOCK_SLACK_MS } from '../../../lib/submit'

// The lookups that tell an unanswered option buy or sale's true outcome (lib/submit.ts). They throw
// when the positions cannot be fetched.

/** Whether a position like the one bought at `sentAt` is held. */
export async function findOptionBought(
  order: Pick<CallBody<'optionOrderSubmit'>, 'coin' | 'kind' | 'strike' | 'quantity'>,
  sentAt: number,
): Promise<boolean> {
  const page = await callApi('optionPositions', { query: { pageNum: '1', pageSize: '30' } }, { quiet: true })
  return page.rows.some(
    (row) =>
      row.coin.toLowerCase() === order.coin.toLowerCase() &&
      row.kind === order.kind &&
      toDecimal(row.strike).equals(toDecimal(order.strike)) &&
      toDecimal(row.quantity).equals(toDecimal(order.quantity)) &&
      row.createdAt >= sentAt - CLOCK_SLACK_MS,
  )
}

/** Whether position `id` was sold back. */
export async function findOptionSold(id: number): Promise<boolean> {
  const page = await callApi(
    'optionPositions',
    { query: { status: 'settled', pageNum: '1', pageSize: '30' } },
    { quiet: true },
  )
  return page.rows.some((row) => row.id === id && row.salePrice !== undefined)
}
