import { toDecimal, type CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../http'
import { CLOCK_SLACK_MS } from '../submit'

export function transferFunds(body: CallBody<'transferFunds'>, options?: CallOptions) {
  return callApi('transferFunds', { body }, options)
}

/** The lookup of an unanswered transfer: a transfer record of `coin` for `amount` made since `sentAt`. */
export async function findTransfer(coin: string, amount: string, sentAt: number): Promise<boolean> {
  const page = await callApi(
    'financialRecords',
    { query: { kind: 'transfer', coin, pageSize: '20' } },
    { quiet: true },
  )
  return page.rows.some(
    (record) =>
      record.createdAt >= sentAt - CLOCK_SLACK_MS && toDecimal(record.amount).abs().equals(toDecimal(amount)),
  )
}
