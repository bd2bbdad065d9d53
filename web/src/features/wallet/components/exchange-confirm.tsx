import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { rateText } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import type { QuoteState } from '../api/get-exchange-quote'
import { ExchangeFigures } from './exchange-figures'
import { BackAndConfirm } from '../../../components/back-and-confirm'
import { Dialog } from '../../../components/dialog'

/**
 * The last look before an exchange, as a dialog: what is paid, at which rate, the fee and what
 * arrives, while the quote holds. A quote replaced while it is open is read out once.
 */
export function ExchangeConfirm({
  from,
  to,
  amount,
  quote,
  busy,
  onConfirm,
  onBack,
  children,
}: {
  /** what became of the submission, shown inside while it is open */
  children?: ReactNode
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
    <Dialog title={t('exchange.confirmTitle')} onClose={onBack} busy={busy} testId="exchange-confirm">
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
      <QuoteAnnouncement from={from} to={to} quote={quote} />
      {children}
    </Dialog>
  )
}

/** Says, politely and once, that the quote was replaced and at which rate; nothing for the first one. */
function QuoteAnnouncement({ from, to, quote }: { from: string; to: string; quote: QuoteState }) {
  const { t } = useTranslation()
  const { decimal, precisionOf } = useFormatters()
  const held = quote.held?.quote
  const firstId = useRef(held?.quoteId)
  const [said, setSaid] = useState('')
  useEffect(() => {
    if (!held || held.quoteId === firstId.current) return
    const rate = `1 ${from.toUpperCase()} = ${decimal(rateText(held.price, precisionOf(to)))} ${to.toUpperCase()}`
    setSaid(t('exchange.quoteRenewed', { rate }))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new quote is news
  }, [held?.quoteId])
  return (
    <p className="visually-hidden" aria-live="polite" data-testid="quote-announcement">
      {said}
    </p>
  )
}
