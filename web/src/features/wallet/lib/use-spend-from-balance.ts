import { toDecimal, type AccountType, type RecordKind } from '@tradegate/shared'
import { isPositiveAmount } from '../../../components/form'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { availableOf } from '../../../lib/order-math'
import { useSubmit } from '../../../lib/submit'
import { findRecordSince } from '../api/find-records'

/**
 * A money form that spends `amount` of `coin` from one of the user's accounts: the balances, what is
 * available there, whether the amount is over it, and the submit. A lost answer is looked up in the
 * records of `kind`; settled or not, the balances are fetched again.
 */
export function useSpendFromBalance(kind: RecordKind, coin: string, account: AccountType, amount: string) {
  const balances = useBalances()
  const available = availableOf(balances.data, coin, account)
  const tooMuch = isPositiveAmount(amount) && toDecimal(amount).greaterThan(available)
  const submit = useSubmit({
    money: true,
    checkWhere: 'submit.where.balances',
    lookup: (sentAt) => findRecordSince(kind, coin, amount, sentAt),
    onSettled: () => void balances.mutate(),
  })
  return { balances, available, tooMuch, submit }
}
