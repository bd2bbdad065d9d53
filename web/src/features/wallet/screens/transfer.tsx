import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { sub, toDecimal, truncateToPrecision, type AccountType } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { Form, SelectField, SubmitButton, isPositiveAmount } from '../../../components/form'
import { CoinAmountField } from '../../../components/coin-amount-field'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { StaleNote } from '../../../components/balance-notices'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { transferFunds } from '../../../lib/api/transfer-funds'
import { findRecordSince } from '../api/find-records'
import { TransferAccounts } from '../components/transfer-accounts'

/** Moves a coin between the platform, financial and contract accounts, in either direction. */
export default function TransferScreen() {
  const { t } = useTranslation()
  const { money, precisionOf } = useFormatters()
  const balances = useBalances()
  const [[from, to], setAccounts] = useState<[AccountType, AccountType]>(['platform', 'contract'])
  const [coin, setCoin] = useState('usdt')
  const [amount, setAmount] = useState('')
  const available =
    balances.data?.find((row) => row.account === from && row.coin.toLowerCase() === coin)?.available ?? '0'
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
              <CoinAmountField
                coin={coin}
                value={amount}
                // Max fills exactly what the screen shows: the balance cut to the coin's precision
                max={truncateToPrecision(available, precisionOf(coin)).toFixed()}
                onValueChange={setAmount}
                testId="transfer"
              />
              <p className="kv">
                <span>{t('money.available')}</span>
                <span className="num" data-testid="transfer-available">
                  {money(available, coin)} {coin.toUpperCase()}
                </span>
              </p>
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
