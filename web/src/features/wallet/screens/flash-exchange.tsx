import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useLocation, useSearchParams } from 'wouter'
import { StaleNote } from '../../../components/balance-notices'
import { Failure } from '../../../components/failure'
import { Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { SubmitNotice } from '../../../components/submit-notice'
import { showOutcome } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { exchangeCurrency } from '../api/exchange-currency'
import { useExchangeQuote } from '../api/get-exchange-quote'
import { BalanceAmountField } from '../components/balance-amount-field'
import { ExchangeConfirm } from '../components/exchange-confirm'
import { ExchangeFigures } from '../components/exchange-figures'
import { ExchangePairButton } from '../components/exchange-pair-button'
import { useSpendFromBalance } from '../lib/use-spend-from-balance'

/** Converts one coin of the platform account into another at a quote that holds for a stated time. */
export default function FlashExchangeScreen() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const [, navigate] = useLocation()
  const from = (search.get('from') ?? 'usdt').toLowerCase()
  const to = (search.get('to') ?? 'btc').toLowerCase()
  const { money } = useFormatters()
  const quote = useExchangeQuote(from, to)
  const [amount, setAmount] = useState('')
  const [reviewing, setReviewing] = useState(false)
  const { balances, available, tooMuch, submit } = useSpendFromBalance('exchange', from, 'platform', amount)
  const choosePair = (pair: { from: string; to: string }) => {
    setAmount('')
    setReviewing(false)
    submit.reset()
    navigate(`/flashExchange?from=${pair.from}&to=${pair.to}`, { replace: true })
  }
  const confirm = () =>
    submit.run(async (signal) => {
      const quoteId = quote.held?.quote.quoteId
      try {
        const result = await exchangeCurrency(
          { from, to, amount, ...(quoteId ? { quoteId } : {}) },
          { signal },
        )
        showOutcome(
          t('wallet.exchanged', {
            paid: `${money(result.paid, from)} ${from.toUpperCase()}`,
            received: `${money(result.received, to)} ${to.toUpperCase()}`,
          }),
        )
        setAmount('')
        setReviewing(false)
      } finally {
        // a quote is used once, whether it settled or was refused
        quote.renew()
      }
    })
  return (
    <Screen title={t('wallet.flashExchange')}>
      <StaleNote stale={balances.stale} />
      <ExchangePairButton from={from} to={to} onPick={choosePair} />
      {reviewing && (
        <ExchangeConfirm
          from={from}
          to={to}
          amount={amount}
          quote={quote}
          busy={submit.busy}
          onConfirm={() => void confirm()}
          onBack={() => {
            submit.reset()
            setReviewing(false)
          }}
        >
          <SubmitNotice submit={submit} />
        </ExchangeConfirm>
      )}
      {/* hidden, not removed, under the dialog: its figures would repeat the dialog's, and Review
          must still be there for focus to return to */}
      <Form onSubmit={() => setReviewing(true)} hidden={reviewing}>
        <BalanceAmountField
          coin={from}
          value={amount}
          available={available}
          onValueChange={setAmount}
          testId="exchange"
          error={tooMuch ? t('errors.insufficientBalance') : null}
        />
        <ExchangeFigures from={from} to={to} amount={amount} quote={quote} />
        {quote.error !== null && <Failure error={quote.error} onRetry={quote.renew} />}
        <SubmitButton
          busy={false}
          disabled={!isPositiveAmount(amount) || tooMuch || !quote.held}
          reason={
            tooMuch
              ? t('errors.insufficientBalance')
              : !isPositiveAmount(amount)
                ? t('errors.amountMustBePositive')
                : !quote.held
                  ? t('exchange.quoting')
                  : null
          }
        >
          {t('exchange.review')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
