import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'wouter'
import { mul } from '@tradegate/shared'
import { AmountField, Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
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
  const submit = useSubmit({ money: true, checkWhere: 'submit.where.balances' })
  const run = () =>
    submit.run(async (signal) => {
      const result = await exchangeCurrency({ from, to, amount }, { signal })
      showToast(t('wallet.exchanged', { paid: result.paid, received: result.received }))
      setAmount('')
    })
  return (
    <Screen title={t('wallet.flashExchange')}>
      <Stat className="card stat" label={t('wallet.rate')} testId="exchange-rate">
        1 {from.toUpperCase()} = {quote.data ? price(quote.data.price) : '--'} {to.toUpperCase()}
      </Stat>
      <Form onSubmit={run}>
        <AmountField
          label={`${t('wallet.amount')} (${from.toUpperCase()})`}
          name="amount"
          value={amount}
          onValueChange={setAmount}
        />
        <p className="muted num">
          ≈ {quote.data && isPositiveAmount(amount) ? price(mul(amount, quote.data.price)) : '0.00'}{' '}
          {to.toUpperCase()}
        </p>
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!isPositiveAmount(amount)}>
          {t('wallet.exchange')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
