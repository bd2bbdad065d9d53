import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'wouter'
import { mul } from '@tradegate/shared'
import { Field, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useCurrencyPrice } from '../api/get-currency-price'
import { exchangeCurrency } from '../api/exchange-currency'

/** Converts one currency into another at the quoted price. */
export default function FlashExchangeScreen() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const from = search.get('from') ?? 'usdt'
  const to = search.get('to') ?? 'btc'
  const { price } = useFormatters()
  const quote = useCurrencyPrice(from, to)
  const [amount, setAmount] = useState('')
  const { busy, run } = useSubmit(async () => {
    const result = await exchangeCurrency({ from, to, amount: amount.trim() })
    showToast(t('wallet.exchanged', { paid: result.paid, received: result.received }))
    setAmount('')
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }
  return (
    <Screen title={t('wallet.flashExchange')}>
      <div className="card stat">
        <span className="stat-label">{t('wallet.rate')}</span>
        <span className="stat-value num" data-testid="exchange-rate">
          1 {from.toUpperCase()} = {quote.data ? price(quote.data.price) : '--'} {to.toUpperCase()}
        </span>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={`${t('wallet.amount')} (${from.toUpperCase()})`}
          name="amount"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <p className="muted num">
          ≈ {quote.data && amount ? price(mul(amount, quote.data.price)) : '0.00'} {to.toUpperCase()}
        </p>
        <SubmitButton busy={busy} disabled={!amount}>
          {t('wallet.exchange')}
        </SubmitButton>
      </form>
    </Screen>
  )
}
