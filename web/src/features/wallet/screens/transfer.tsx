import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { sub, toDecimal, truncateToPrecision, type AccountType } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { AmountField, Form, SelectField, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { SwapIcon } from '../../../components/icons'
import { StaleNote } from '../../../components/balance-notices'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { transferFunds } from '../../../lib/api/transfer-funds'
import { findRecordSince } from '../api/find-records'

const ACCOUNTS: readonly AccountType[] = ['platform', 'financial', 'contract']

/** Moves a coin between the platform, financial and contract accounts, in either direction. */
export default function TransferScreen() {
  const { t } = useTranslation()
  const { money, precisionOf } = useFormatters()
  const balances = useBalances()
  const [from, setFrom] = useState<AccountType>('platform')
  const [to, setTo] = useState<AccountType>('contract')
  const [coin, setCoin] = useState('usdt')
  const [amount, setAmount] = useState('')
  const available =
    balances.data?.find((row) => row.account === from && row.coin.toLowerCase() === coin)?.available ?? '0'
  const places = precisionOf(coin)
  // Max fills exactly what the screen shows: the balance cut to the coin's precision
  const max = truncateToPrecision(available, places).toFixed()
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
  const accountOptions = ACCOUNTS.map((value) => ({ value, label: t(`wallet.accounts.${value}`) }))
  const chooseFrom = (value: AccountType) => {
    if (value === to) setTo(from)
    setFrom(value)
  }
  const chooseTo = (value: AccountType) => {
    if (value === from) setFrom(to)
    setTo(value)
  }
  const swap = () => {
    setFrom(to)
    setTo(from)
  }
  return (
    <Screen title={t('money.transfer.title')}>
      <StaleNote stale={balances.stale} />
      <DataState {...balances}>
        {(rows) => {
          const coins = [...new Set(['usdt', ...rows.map((row) => row.coin.toLowerCase())])]
          return (
            <Form onSubmit={run}>
              <div className="transfer-accounts">
                <SelectField
                  label={t('money.transfer.from')}
                  name="from"
                  value={from}
                  options={accountOptions}
                  onValueChange={(value) => chooseFrom(value as AccountType)}
                />
                <button
                  type="button"
                  className="icon-button"
                  onClick={swap}
                  aria-label={t('money.transfer.swap')}
                  data-testid="transfer-swap"
                >
                  <SwapIcon />
                </button>
                <SelectField
                  label={t('money.transfer.to')}
                  name="to"
                  value={to}
                  options={accountOptions}
                  onValueChange={(value) => chooseTo(value as AccountType)}
                />
              </div>
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
              <AmountField
                label={`${t('wallet.amount')} (${coin.toUpperCase()})`}
                name="amount"
                value={amount}
                places={places}
                onValueChange={setAmount}
                end={
                  <button
                    type="button"
                    className="button button-text"
                    onClick={() => setAmount(max)}
                    data-testid="transfer-max"
                  >
                    {t('money.max')}
                  </button>
                }
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
