import { useState, type FormEvent } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { showOutcome } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { findTransfer, transferFunds } from '../../../lib/api/transfer-funds'
import { sanitiseAmount } from '../../../lib/order-math'
import { AmountInput, OrderError } from '../../../components/form-bits'
import { useSubmit } from '../../../lib/submit'
import { SubmitNotice } from '../../../components/submit-notice'

/** Moves usdt from the platform account into the contract account that contract orders draw on. */
export function TransferForm({ available, onDone }: { available: string; onDone: () => void }) {
  const { t } = useTranslation()
  // USDT amounts and prices, by the places the gateway judges them by (the call table's USDT scale)
  const { balance, precisionOf } = useFormatters()
  const usdtPlaces = precisionOf('usdt')
  const [amount, setAmount] = useState('')
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.balances',
    lookup: (sentAt) => findTransfer('usdt', amount, sentAt),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void flow.run(async (signal) => {
      await transferFunds({ coin: 'usdt', from: 'platform', to: 'contract', amount }, { signal })
      showOutcome(t('trade.transferred'))
      setAmount('')
      onDone()
    })
  }
  return (
    <form className="inline-form" onSubmit={submit} noValidate data-testid="transfer-form">
      <AmountInput
        label={`${t('trade.transferAmount')} · ${t('trade.available')} ${balance(available, 2)}`}
        name="transfer"
        unit="usdt"
        value={amount}
        onChange={(text) => setAmount(sanitiseAmount(text, usdtPlaces))}
      />
      <OrderError message={flow.error} />
      <SubmitNotice submit={flow} />
      <button
        type="submit"
        className="button button-primary"
        disabled={!amount}
        aria-disabled={flow.busy || undefined}
      >
        {t('trade.transfer')}
      </button>
    </form>
  )
}

/** The "transfer to contract account" link under the contract form, opening the transfer form. */
export function TransferToggle({ available, onDone }: { available: string; onDone: () => void }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        className="button button-text"
        onClick={() => setOpen((current) => !current)}
        aria-expanded={open}
        data-testid="open-transfer"
      >
        {t('trade.transferToContract')}
      </button>
      {open && (
        <TransferForm
          available={available}
          onDone={() => {
            setOpen(false)
            onDone()
          }}
        />
      )}
    </>
  )
}
