import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { sub, type AccountType } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { Form, SelectField, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { StaleNote } from '../../../components/balance-notices'
import { Screen } from '../../../components/screen'
import { showOutcome, showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { transferFunds } from '../../../lib/api/transfer-funds'
import { BalanceAmountField } from '../components/balance-amount-field'
import { TransferAccounts } from '../components/transfer-accounts'
import { useSpendFromBalance } from '../lib/use-spend-from-balance'

/** Moves a coin between the platform, financial and contract accounts, in either direction. */
export default function TransferScreen() {
  const { t } = useTranslation()
  const { money } = useFormatters()
  const [[from, to], setAccounts] = useState<[AccountType, AccountType]>(['platform', 'contract'])
  const [coin, setCoin] = useState('usdt')
  const [amount, setAmount] = useState('')
  const { balances, available, tooMuch, submit } = useSpendFromBalance('transfer', coin, from, amount)
  const overText = tooMuch ? t('money.transfer.over', { over: money(sub(amount, available), coin) }) : null
  const run = () =>
    submit.run(async (signal) => {
      if (!isPositiveAmount(amount)) return showToast(t('errors.amountMustBePositive'))
      if (tooMuch) return showToast(t('errors.insufficientBalance'))
      await transferFunds({ coin, from, to, amount }, { signal })
      showOutcome(t('money.transfer.done'))
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
                error={overText}
              />
              <SubmitNotice submit={submit} />
              <SubmitButton
                busy={submit.busy}
                disabled={!isPositiveAmount(amount) || tooMuch}
                reason={overText ?? t('errors.amountMustBePositive')}
              >
                {t('money.transfer.submit')}
              </SubmitButton>
            </Form>
          )
        }}
      </DataState>
    </Screen>
  )
}
