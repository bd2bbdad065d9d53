import type { FinancialRecord } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import type { SandboxState } from '../state'
import type { UserRecord } from './ledger'

// A user's ledger records as pages: all of them filtered by coin and kind, deposit bonuses, rebates.

type RecordCalls = 'financialRecords' | 'rechargeBonusList' | 'brokerRecords'

export function recordHandlers({ ledger }: SandboxState): Pick<Handlers, RecordCalls> {
  const records = (userId: string, keep: (record: UserRecord) => boolean): FinancialRecord[] =>
    ledger
      .records(userId)
      .filter(keep)
      .map(({ userId: _owner, ...record }) => record)

  return {
    financialRecords: ({ user, query }) =>
      page(
        records(
          user.id,
          (record) =>
            (!query.coin || record.coin === query.coin.toLowerCase()) &&
            (!query.kind || record.kind === query.kind),
        ),
        query,
      ),

    rechargeBonusList: ({ user, query }) =>
      page(
        records(user.id, (record) => record.kind === 'bonus'),
        query,
      ),

    brokerRecords: ({ user, query }) =>
      page(
        records(user.id, (record) => record.kind === 'rebate'),
        query,
      ),
  }
}
