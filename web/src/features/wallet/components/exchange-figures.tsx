import { useTranslation } from '../../../lib/i18n'
import { exchangeFigures, mul, rateText } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import type { QuoteState } from '../api/get-exchange-quote'

/** The rate, fee and amount received of an exchange at the held quote, and how long the quote holds. */
export function ExchangeFigures({
  from,
  to,
  amount,
  quote,
}: {
  from: string
  to: string
  /** empty or zero shows the rate and fee rate alone */
  amount: string
  quote: QuoteState
}) {
  const { t } = useTranslation()
  const { money, exact, decimal, feeRate, precisionOf } = useFormatters()
  const held = quote.held?.quote
  const TO = to.toUpperCase()
  const figures = held ? exchangeFigures(amount || '0', held.price, held.feeRate, precisionOf(to)) : null
  const rows: Array<[string, string, string]> = [
    [
      t('wallet.rate'),
      held ? `1 ${from.toUpperCase()} = ${decimal(rateText(held.price, precisionOf(to)))} ${TO}` : '--',
      'exchange-rate',
    ],
    [
      // what the cut to the coin's places keeps is named with the fee and counted in it, never hidden
      t(figures && figures.kept.gt(figures.fee) ? 'exchange.feeAndRounding' : 'exchange.fee', {
        rate: held ? feeRate(mul(held.feeRate, 100)) : '--',
      }),
      figures ? `${exact(figures.kept, to)} ${TO}` : '--',
      'exchange-fee',
    ],
    // exactly what arrives: the sandbox settles a quote by the same figures
    [t('exchange.receive'), figures ? `${money(figures.received, to)} ${TO}` : '--', 'exchange-receive'],
  ]
  return (
    <>
      {rows.map(([label, value, testId]) => (
        <p className="kv" key={testId}>
          <span>{label}</span>
          <span className="num" data-testid={testId}>
            {value}
          </span>
        </p>
      ))}
      <p className="muted" role="timer" aria-live="off" data-testid="quote-timer">
        {held ? t('exchange.quoteHolds', { seconds: quote.secondsLeft }) : t('exchange.quoting')}
      </p>
    </>
  )
}
