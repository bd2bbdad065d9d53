import { toDecimal } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function redeemProxy(id: number, options?: CallOptions) {
  return callApi('proxyRedeem', { query: { id: String(id) } }, options)
}

/** After an unanswered submit: is there a holding of the product for the amount made since sentAt? */
export async function findProxyHolding(productId: number, amount: string, sentAt: number): Promise<boolean> {
  const page = await callApi('proxyRecords', { query: { pageNum: '1', pageSize: '20' } }, { quiet: true })
  return page.rows.some(
    (row) =>
      row.productId === productId &&
      row.createdAt >= sentAt - 5000 &&
      toDecimal(row.amount).equals(toDecimal(amount)),
  )
}

/** After an unanswered redeem: has the holding stopped running? */
export async function proxyHoldingRedeemed(id: number): Promise<boolean> {
  const page = await callApi('proxyRecords', { query: { pageNum: '1', pageSize: '50' } }, { quiet: true })
  return page.rows.some((row) => row.id === id && row.status !== 'running')
}
