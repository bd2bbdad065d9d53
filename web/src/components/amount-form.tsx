import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AmountField, Form, SubmitButton, isPositiveAmount, useSubmit } from './form'

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
  const [amount, setAmount] = useState('')
  const { busy, run } = useSubmit(async () => {
    await onSubmit(amount.trim())
    setAmount('')
  })
  return (
    <Form onSubmit={run}>
      <AmountField
        label={`${t('wallet.amount')} (${coin.toUpperCase()})`}
        name="amount"
        value={amount}
        onValueChange={setAmount}
      />
      <SubmitButton busy={busy} disabled={!isPositiveAmount(amount)}>
        {label}
      </SubmitButton>
    </Form>
  )
}
