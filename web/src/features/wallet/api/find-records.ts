import { toDecimal, type RecordKind } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

// Lookups for a money action whose answer never came: did it reach the exchange after all?

/** Server and browser clocks differ a little; a record this much older than the send still counts. */
const CLOCK_SLACK_MS = 5000

/** True when the user's records hold a movement of `kind` and `coin` for `amount` made since `sentAt`. */
export async function findRecordSince(
  kind: RecordKind,
  coin: string,
  amount: string,
  sentAt: number,
): Promise<boolean> {
  const page = await callApi('financialRecords', { query: { kind, coin, pageSize: '20' } }, { quiet: true })
  return page.rows.some(
    (record) =>
      record.createdAt >= sentAt - CLOCK_SLACK_MS && toDecimal(record.amount).abs().equals(toDecimal(amount)),
  )
}

/** True when a withdrawal of `amount` to `address` was requested since `sentAt`. */
export async function findWithdrawalSince(
  coin: string,
  amount: string,
  address: string,
  sentAt: number,
): Promise<boolean> {
  const page = await callApi('withdrawList', { query: { coin, pageSize: '20' } }, { quiet: true })
  return page.rows.some(
    (row) =>
      row.createdAt >= sentAt - CLOCK_SLACK_MS &&
      row.address === address &&
      toDecimal(row.amount).equals(toDecimal(amount)),
  )
}
