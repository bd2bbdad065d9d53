import type { RecordKind } from '@tradegate/shared'
import { useAllPages } from '../../../lib/swr'

/** The most recent movements the cash-flow screen filters and exports. */
const RECORDS_SHOWN = 500

export function useFinancialRecords(kind: RecordKind | '') {
  return useAllPages('financialRecords', kind ? { kind } : {}, RECORDS_SHOWN)
}
