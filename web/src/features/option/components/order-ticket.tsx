import { useState, type FormEvent } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { OptionChain } from '@tradegate/shared'
import { SubmittingOverlay } from '../../../components/submitting-overlay'
import { showOutcome } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { AmountInput, OrderError } from '../../../components/form-bits'
import { useSubmit } from '../../../lib/submit'
import { SubmitNotice } from '../../../components/submit-notice'
import { sanitiseAmount } from '../../../lib/order-math'
import { buyOption } from '../api/buy-option'
import { findOptionBought } from '../api/find-option-actions'
import { formatTimeLeft } from '../lib/option-math'
import { useTicketPricing } from '../lib/use-ticket-pricing'
import type { OptionPick } from '../lib/chain-types'
import { TicketFigures } from './ticket-figures'

/**
 * Buying the picked option at its ask: quantity and the most per unit the buyer accepts, with what it
 * costs (TicketFigures) shown before anything is sent.
 */
export function OrderTicket({
  chain,
  pick,
  spot,
  now,
  onBought,
}: {
  chain: OptionChain
  pick: OptionPick | null
  spot: string | undefined
  now: number
  onBought: () => void
}) {
  const { t } = useTranslation()
  // USDT amounts and prices, by the places the gateway judges them by (the call table's USDT scale)
  const { strike, dateTime, precisionOf } = useFormatters()
  const usdtPlaces = precisionOf('usdt')
  const balances = useBalances()
  const [quantity, setQuantity] = useState(chain.lotSize)
  const [limit, setLimit] = useState('')
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.positions',
    onSettled: () => void balances.mutate(),
    lookup: async (sentAt) =>
      pick !== null &&
      (await findOptionBought({ coin: chain.coin, kind: pick.kind, strike: pick.strike, quantity }, sentAt)),
  })
  const pricing = useTicketPricing(chain, pick, spot, now, quantity)
  const { quote, protectiveLimit, units } = pricing
  const places = chain.lotSize.split('.')[1]?.length ?? 0
  const coin = chain.coin.toUpperCase()

  if (!pick) return <EmptyTicket />

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!quote) return
    void flow.run(async (signal) => {
      await buyOption(
        {
          coin: chain.coin,
          expiresAt: pick.expiresAt,
          strike: pick.strike,
          kind: pick.kind,
          quantity,
          maxPremium: limit || protectiveLimit || quote.premium.toFixed(),
        },
        { signal },
      )
      showOutcome(t('options.bought'))
      setLimit('')
      onBought()
    })
  }

  return (
    <section className="panel option-ticket" aria-label={t('options.ticket')} data-testid="option-ticket">
      <h2 className="panel-title">
        <span className={pick.kind === 'call' ? 'up' : 'down'}>{t(`options.${pick.kind}`)}</span> {coin}{' '}
        <span className="num">{strike(pick.strike)}</span>
      </h2>
      <p className="muted option-ticket-expiry">
        {t('options.expires')} <span className="phrase">{dateTime(pick.expiresAt)}</span> ·{' '}
        <span className="num">{formatTimeLeft(pick.expiresAt - now)}</span>
      </p>
      <form className="order-form" onSubmit={submit} noValidate>
        <AmountInput
          label={t('options.quantity')}
          name="quantity"
          unit={chain.coin}
          hint={t('options.lotHint', { lot: chain.lotSize, max: chain.maxQuantity })}
          value={quantity}
          onChange={(text) => setQuantity(sanitiseAmount(text, places))}
        />
        <AmountInput
          label={t('options.maxPremium')}
          name="maxPremium"
          unit="usdt"
          hint={protectiveLimit ?? undefined}
          value={limit}
          onChange={(text) => setLimit(sanitiseAmount(text, usdtPlaces))}
        />
        <p className="muted field-note">{t('options.maxPremiumNote')}</p>
        <TicketFigures chain={chain} pick={pick} spot={spot} pricing={pricing} />
        <OrderError message={flow.error} />
        <SubmitNotice submit={flow} />
        <button
          type="submit"
          className={`button ${pick.kind === 'call' ? 'button-up' : 'button-down'}`}
          disabled={!quote || !units.greaterThan(0) || flow.busy}
          data-testid="option-buy"
        >
          {t(`options.buy_${pick.kind}`)}
        </button>
      </form>
      <SubmittingOverlay submit={flow} />
    </section>
  )
}

/** The ticket before a pick: where to start. */
function EmptyTicket() {
  const { t } = useTranslation()
  return (
    <section className="panel option-ticket" aria-label={t('options.ticket')}>
      <h2 className="panel-title">{t('options.ticket')}</h2>
      <p className="muted empty-line">{t('options.pickHint')}</p>
    </section>
  )
}
