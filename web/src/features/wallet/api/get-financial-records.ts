import type { RecordKind } from '@tradegate/shared'
import { useCall } from '../../../lib/swr'

/** The most recent movements the cash-flow screen filters and exports. */
const RECORDS_SHOWN = '500'

export function useFinancialRecords(kind: RecordKind | '') {
  return useCall('financialRecords', {
    query: { pageNum: '1', pageSize: RECORDS_SHOWN, ...(kind ? { kind } : {}) },
  })
}
