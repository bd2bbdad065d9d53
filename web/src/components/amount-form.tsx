import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { AmountField, Form, SubmitButton, isPositiveAmount } from './form'
import { SubmitNotice } from './submit-notice'
import { useSubmit } from '../lib/submit'
import { useFormatters } from '../lib/use-formatters'

/** One amount and a confirm button; used to subscribe to a product or follow a trader. */
export function AmountForm({
  coin,
  onSubmit,
  label,
}: {
  coin: string
  label: string
  onSubmit: (amount: string) => Promise<void>
}) {
  const { t } = useTranslation()
  const { precisionOf } = useFormatters()
  const [amount, setAmount] = useState('')
  const submit = useSubmit({ money: true })
  const run = () =>
    submit.run(async () => {
      await onSubmit(amount.trim())
      setAmount('')
    })
  return (
    <Form onSubmit={run}>
      <AmountField
        label={t('common.withUnit', { name: t('wallet.amount'), unit: coin.toUpperCase() })}
        name="amount"
        value={amount}
        places={precisionOf(coin)}
        onValueChange={setAmount}
      />
      <SubmitNotice submit={submit} />
      <SubmitButton busy={submit.busy} disabled={!isPositiveAmount(amount)}>
        {label}
      </SubmitButton>
    </Form>
  )
}
