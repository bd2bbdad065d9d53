import { useTranslation } from 'react-i18next'
import { useFormatters } from '../../../lib/use-formatters'
import type { QuoteState } from '../api/get-exchange-quote'
import { ExchangeFigures } from './exchange-figures'
import { BackAndConfirm } from '../../../components/back-and-confirm'

/** The last look before an exchange: what is paid, at which rate, the fee and what arrives, while the quote holds. */
export function ExchangeConfirm({
  from,
  to,
  amount,
  quote,
  busy,
  onConfirm,
  onBack,
}: {
  from: string
  to: string
  amount: string
  quote: QuoteState
  busy: boolean
  onConfirm: () => void
  onBack: () => void
}) {
  const { t } = useTranslation()
  const { money } = useFormatters()
  return (
    <section className="card form" data-testid="exchange-confirm" aria-labelledby="exchange-confirm-title">
      <h2 id="exchange-confirm-title" className="card-title">
        {t('exchange.confirmTitle')}
      </h2>
      <p className="kv">
        <span>{t('exchange.pay')}</span>
        <span className="num" data-testid="confirm-pay">
          {money(amount, from)} {from.toUpperCase()}
        </span>
      </p>
      <ExchangeFigures from={from} to={to} amount={amount} quote={quote} />
      <p className="note">{t('exchange.quoteNote')}</p>
      <BackAndConfirm
        confirmLabel={t('exchange.confirm')}
        busy={busy}
        canConfirm={quote.held !== null}
        onBack={onBack}
        onConfirm={onConfirm}
        testId="exchange-confirm-submit"
      />
    </section>
  )
}
