import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { toDecimal, type RechargeCoin } from '@tradegate/shared'
import { AmountField, Field, Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { showOutcome, showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { submitRecharge } from '../api/submit-recharge'

/** The form that reports a deposit made to the shown address: amount (not below the minimum) and hash. */
export function RechargeReport({
  selected,
  network,
  onReported,
}: {
  selected: RechargeCoin
  network?: string
  onReported: () => void
}) {
  const { t } = useTranslation()
  const { precisionOf } = useFormatters()
  const [amount, setAmount] = useState('')
  const [txHash, setTxHash] = useState('')
  const coin = selected.coin.toUpperCase()
  const belowMinimum = isPositiveAmount(amount) && toDecimal(amount).lessThan(selected.rechargeMin)
  const submit = useSubmit({ money: true, checkWhere: 'submit.where.deposits' })
  const run = () =>
    submit.run(async (signal) => {
      if (!isPositiveAmount(amount)) return showToast(t('errors.amountMustBePositive'))
      if (belowMinimum) return showToast(t('errors.rechargeBelowMinimum'))
      await submitRecharge(
        {
          coin: selected.coin,
          amount,
          ...(network ? { chain: network } : {}),
          ...(txHash.trim() ? { txHash: txHash.trim() } : {}),
        },
        { signal },
      )
      showOutcome(t('money.recharge.submitted'))
      setAmount('')
      setTxHash('')
      onReported()
    })
  return (
    <div className="card">
      <p className="section-title">{t('money.recharge.report')}</p>
      <Form onSubmit={run}>
        <AmountField
          label={t('common.withUnit', { name: t('wallet.amount'), unit: coin })}
          name="amount"
          value={amount}
          places={precisionOf(selected.coin)}
          onValueChange={setAmount}
          placeholder={t('money.recharge.atLeast', { min: selected.rechargeMin })}
        />
        {belowMinimum && (
          <p className="note note-warning">
            {t('money.recharge.belowMinimum', { min: selected.rechargeMin, coin })}
          </p>
        )}
        <Field
          label={t('money.recharge.txHash')}
          name="txHash"
          value={txHash}
          onValueChange={setTxHash}
          autoComplete="off"
        />
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!isPositiveAmount(amount) || belowMinimum}>
          {t('money.recharge.submit')}
        </SubmitButton>
      </Form>
    </div>
  )
}
