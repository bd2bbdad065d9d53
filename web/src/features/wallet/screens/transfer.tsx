import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { sub, toDecimal, type AccountType } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { Form, SelectField, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { StaleNote } from '../../../components/balance-notices'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { availableOf } from '../../../lib/order-math'
import { transferFunds } from '../../../lib/api/transfer-funds'
import { findRecordSince } from '../api/find-records'
import { BalanceAmountField } from '../components/balance-amount-field'
import { TransferAccounts } from '../components/transfer-accounts'

/** Moves a coin between the platform, financial and contract accounts, in either direction. */
export default function TransferScreen() {
  const { t } = useTranslation()
  const { money } = useFormatters()
  const balances = useBalances()
  const [[from, to], setAccounts] = useState<[AccountType, AccountType]>(['platform', 'contract'])
  const [coin, setCoin] = useState('usdt')
  const [amount, setAmount] = useState('')
  const available = availableOf(balances.data, coin, from)
  const tooMuch = isPositiveAmount(amount) && toDecimal(amount).greaterThan(available)
  const submit = useSubmit({
    money: true,
    checkWhere: 'submit.where.balances',
    lookup: (sentAt) => findRecordSince('transfer', coin, amount, sentAt),
    onSettled: () => void balances.mutate(),
  })
  const run = () =>
    submit.run(async (signal) => {
      if (!isPositiveAmount(amount)) return showToast(t('errors.amountMustBePositive'))
      if (tooMuch) return showToast(t('errors.insufficientBalance'))
      await transferFunds({ coin, from, to, amount }, { signal })
      showToast(t('money.transfer.done'))
      setAmount('')
    })
  return (
    <Screen title={t('money.transfer.title')}>
      <StaleNote stale={balances.stale} />
      <DataState {...balances}>
        {(rows) => {
          const coins = [...new Set(['usdt', ...rows.map((row) => row.coin.toLowerCase())])]
          return (
            <Form onSubmit={run}>
              <TransferAccounts from={from} to={to} onChange={(...pair) => setAccounts(pair)} />
              <SelectField
                label={t('money.transfer.coin')}
                name="coin"
                value={coin}
                options={coins.map((value) => ({ value, label: value.toUpperCase() }))}
                onValueChange={(value) => {
                  setCoin(value)
                  setAmount('')
                }}
              />
              <BalanceAmountField
                coin={coin}
                value={amount}
                available={available}
                onValueChange={setAmount}
                testId="transfer"
              />
              {tooMuch && (
                <p className="note note-warning">
                  {t('money.transfer.over', { over: money(sub(amount, available), coin) })}
                </p>
              )}
              <SubmitNotice submit={submit} />
              <SubmitButton busy={submit.busy} disabled={!isPositiveAmount(amount) || tooMuch}>
                {t('money.transfer.submit')}
              </SubmitButton>
            </Form>
          )
        }}
      </DataState>
    </Screen>
  )
}
