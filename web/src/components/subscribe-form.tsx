import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { toDecimal, truncateToPrecision, type Product } from '@tradegate/shared'
import { useBalances } from '../lib/api/get-asset-balance'
import { availableOf } from '../lib/order-math'
import { expectedInterest, maturityOf } from '../lib/product-math'
import { useSubmit } from '../lib/submit'
import { showOutcome } from '../lib/toast'
import { useFormatters } from '../lib/use-formatters'
import { CoinAmountField } from './coin-amount-field'
import { Form, SubmitButton, isPositiveAmount } from './form'
import { BackAndConfirm } from './back-and-confirm'
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
  // a subscription locks the money for the term: the figures are shown once more before it is sent
  const [reviewing, setReviewing] = useState(false)
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
      showOutcome(t('common.success'))
      setAmount('')
      setReviewing(false)
    })
  const figures: FigureRow[] = [
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
    [t('savings.maturity'), date(maturityOf(product, openedAt)), 'maturity', 'phrase'],
  ]
  if (reviewing)
    return (
      <section
        className="card form"
        data-testid="subscribe-confirm"
        aria-labelledby="subscribe-confirm-title"
      >
        <h2 id="subscribe-confirm-title" className="card-title">
          {t('savings.confirmTitle')}
        </h2>
        <Figures
          rows={[[t('wallet.amount'), `${money(amount, coin)} ${COIN}`, 'amount'], ...figures.slice(2)]}
        />
        <SubmitNotice submit={submit} />
        <BackAndConfirm
          confirmLabel={t('finance.subscribe')}
          busy={submit.busy}
          onBack={() => {
            submit.reset()
            setReviewing(false)
          }}
          onConfirm={() => void run()}
          testId="subscribe-confirm-submit"
        />
      </section>
    )
  return (
    <Form onSubmit={() => setReviewing(true)}>
      <Figures rows={figures} />
      <CoinAmountField
        coin={coin}
        value={amount}
        max={truncateToPrecision(available, places).toFixed()}
        onValueChange={setAmount}
        testId="subscribe"
      />
      {problem && <p className="note note-warning">{t(problem)}</p>}
      <SubmitNotice submit={submit} />
      <SubmitButton busy={false} disabled={!isPositiveAmount(amount) || problem !== null}>
        {t('finance.review')}
      </SubmitButton>
    </Form>
  )
}

/** Label and figure rows, each figure with its test id. */
/** label, value, test id, and whether the value is a figure (`num`) or a `phrase` the locale words (a date) */
type FigureRow = readonly [string, string, string, ('num' | 'phrase')?]

function Figures({ rows }: { rows: readonly FigureRow[] }) {
  return rows.map(([label, value, testId, kind = 'num']) => (
    <p className="kv" key={testId}>
      <span>{label}</span>
      <span className={kind} data-testid={`subscribe-${testId}`}>
        {value}
      </span>
    </p>
  ))
}
