import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toDecimal, truncateToPrecision, type Product } from '@tradegate/shared'
import { useBalances } from '../lib/api/get-asset-balance'
import { availableOf } from '../lib/order-math'
import { expectedInterest, maturityOf } from '../lib/product-math'
import { useSubmit } from '../lib/submit'
import { showToast } from '../lib/toast'
import { useFormatters } from '../lib/use-formatters'
import { AmountField, Form, SubmitButton, isPositiveAmount } from './form'
import { SubmitNotice } from './submit-notice'

/**
 * Subscribing to a savings or proxy product: the minimum and maximum, what the platform account has,
 * and, as the amount is typed, the interest the whole term pays and the day it matures.
 */
export function SubscribeForm({
  product,
  subscribe,
  lookup,
}: {
  product: Product
  subscribe: (amount: string, signal: AbortSignal) => Promise<unknown>
  /** whether a holding of this product for the amount exists since sentAt, after an unanswered submit */
  lookup: (amount: string, sentAt: number) => Promise<boolean>
}) {
  const { t } = useTranslation()
  const { money, date, precisionOf } = useFormatters()
  const balances = useBalances()
  const [amount, setAmount] = useState('')
  // the term counts from when the form was opened: close enough for a date, and stable across renders
  const [openedAt] = useState(() => Date.now())
  const coin = product.coin
  const COIN = coin.toUpperCase()
  const places = precisionOf(coin)
  const available = availableOf(balances.data, coin, 'platform')
  const typed = isPositiveAmount(amount) ? amount : '0'
  const problem = !isPositiveAmount(amount)
    ? null
    : toDecimal(amount).lessThan(product.minAmount)
      ? 'errors.amountBelowMinimum'
      : toDecimal(amount).greaterThan(product.maxAmount)
        ? 'errors.amountAboveMaximum'
        : toDecimal(amount).greaterThan(available)
          ? 'errors.insufficientBalance'
          : null
  const submit = useSubmit({
    money: true,
    checkWhere: 'submit.where.records',
    lookup: (sentAt) => lookup(amount, sentAt),
    onSettled: () => void balances.mutate(),
  })
  const run = () =>
    submit.run(async (signal) => {
      await subscribe(amount, signal)
      showToast(t('common.success'))
      setAmount('')
    })
  const figures: Array<[string, string, string]> = [
    [
      t('savings.limits'),
      `${money(product.minAmount, coin)} – ${money(product.maxAmount, coin)} ${COIN}`,
      'limits',
    ],
    [t('money.available'), `${money(available, coin)} ${COIN}`, 'available'],
    [
      t('savings.expectedInterest'),
      `${money(expectedInterest(product, typed, places), coin)} ${COIN}`,
      'interest',
    ],
    [t('savings.maturity'), date(maturityOf(product, openedAt)), 'maturity'],
  ]
  return (
    <Form onSubmit={run}>
      {figures.map(([label, value, testId]) => (
        <p className="kv" key={testId}>
          <span>{label}</span>
          <span className="num" data-testid={`subscribe-${testId}`}>
            {value}
          </span>
        </p>
      ))}
      <AmountField
        label={`${t('wallet.amount')} (${COIN})`}
        name="amount"
        value={amount}
        places={places}
        onValueChange={setAmount}
        end={
          <button
            type="button"
            className="button button-text"
            onClick={() => setAmount(truncateToPrecision(available, places).toFixed())}
          >
            {t('money.max')}
          </button>
        }
      />
      {problem && <p className="note note-warning">{t(problem)}</p>}
      <SubmitNotice submit={submit} />
      <SubmitButton busy={submit.busy} disabled={!isPositiveAmount(amount) || problem !== null}>
        {t('finance.subscribe')}
      </SubmitButton>
    </Form>
  )
}
