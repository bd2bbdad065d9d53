import { toDecimal } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'
import { useCall } from '../../../lib/swr'

export function useFinanceHoldings() {
  return useCall('financeOrders', { query: { pageNum: '1', pageSize: '50' } })
}

export function redeemFinance(id: number, options?: CallOptions) {
  return callApi('financeRedeem', { query: { id: String(id) } }, options)
}

/** After an unanswered submit: is there a holding of the product for the amount made since sentAt? */
export async function findFinanceHolding(
  productId: number,
  amount: string,
  sentAt: number,
): Promise<boolean> {
  const page = await callApi('financeOrders', { query: { pageNum: '1', pageSize: '20' } }, { quiet: true })
  return page.rows.some(
    (row) =>
      row.productId === productId &&
      row.createdAt >= sentAt - 5000 &&
      toDecimal(row.amount).equals(toDecimal(amount)),
  )
}

/** After an unanswered redeem: has the holding stopped running? */
export async function financeHoldingRedeemed(id: number): Promise<boolean> {
  const page = await callApi('financeOrders', { query: { pageNum: '1', pageSize: '50' } }, { quiet: true })
  return page.rows.some((row) => row.id === id && row.status !== 'running')
}
