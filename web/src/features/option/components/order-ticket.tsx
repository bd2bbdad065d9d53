import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import {
  OPTION_FEE_PERCENT,
  breakEven,
  optionOrderCost,
  toDecimal,
  type OptionChain,
} from '@tradegate/shared'
import { SubmittingOverlay } from '../../../components/submitting-overlay'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { AmountInput, Figure, OrderError } from '../../../components/form-bits'
import { useSubmit } from '../../../lib/submit'
import { SubmitNotice } from '../../../components/submit-notice'
import { availableOf, sanitiseAmount } from '../../../lib/order-math'
import { buyOption } from '../api/buy-option'
import { defaultLimit, formatTimeLeft, quoteOf } from '../lib/option-math'
import type { OptionPick } from './option-chain'

/**
 * Buying the picked option: quantity and the most per unit the buyer accepts, and before anything is
 * sent the premium, fee, total cost, break-even at expiry and the most the buyer can lose.
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
  const { price, amount, dateTime } = useFormatters()
  const balances = useBalances()
  const [quantity, setQuantity] = useState(chain.lotSize)
  const [limit, setLimit] = useState('')
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.positions',
    onSettled: () => void balances.mutate(),
  })
  const second = Math.floor(now / 1000) * 1000
  const quote = useMemo(
    () => (pick ? quoteOf(pick.kind, pick.strike, pick.expiresAt, spot, chain, second) : null),
    [pick, spot, chain, second],
  )
  const protectiveLimit = useMemo(
    () => (pick ? defaultLimit(pick.kind, pick.strike, pick.expiresAt, spot, chain, second) : null),
    [pick, spot, chain, second],
  )
  const places = chain.lotSize.split('.')[1]?.length ?? 0
  const units = toDecimal(quantity)
  const cost = quote ? optionOrderCost(units, quote.premium, chain) : null
  const perUnit = cost && units.greaterThan(0) ? cost.total.dividedBy(units) : null
  const coin = chain.coin.toUpperCase()
  const available = availableOf(balances.data, 'usdt', 'platform')

  if (!pick) {
    return (
      <section className="panel option-ticket" aria-label={t('options.ticket')}>
        <h2 className="panel-title">{t('options.ticket')}</h2>
        <p className="muted empty-line">{t('options.pickHint')}</p>
      </section>
    )
  }

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
      showToast(t('options.bought'))
      setLimit('')
      onBought()
    })
  }

  return (
    <section className="panel option-ticket" aria-label={t('options.ticket')} data-testid="option-ticket">
      <h2 className="panel-title">
        <span className={pick.kind === 'call' ? 'up' : 'down'}>{t(`options.${pick.kind}`)}</span> {coin}{' '}
        <span className="num">{price(pick.strike)}</span>
      </h2>
      <p className="muted option-ticket-expiry">
        {t('options.expires')} <span className="num">{dateTime(pick.expiresAt)}</span> ·{' '}
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
          onChange={(text) => setLimit(sanitiseAmount(text, 8))}
        />
        <p className="muted field-note">{t('options.maxPremiumNote')}</p>
        <div className="figures">
          <Figure label={t('options.premiumPerUnit')} testId="ticket-premium">
            {quote ? `${amount(quote.premium, 4)} USDT` : '--'}
          </Figure>
          <Figure label={t('options.delta')}>{quote ? amount(quote.delta, 3) : '--'}</Figure>
          <Figure label={t('options.premiumTotal')}>{cost ? `${amount(cost.cost, 4)} USDT` : '--'}</Figure>
          <Figure
            label={`${t('options.fee')} · ${chain.feeType === OPTION_FEE_PERCENT ? `${chain.feeValue}%` : `${chain.feeValue} USDT`}`}
            testId="ticket-fee"
          >
            {cost ? `${amount(cost.fee, 4)} USDT` : '--'}
          </Figure>
          <Figure label={t('options.totalCost')} testId="ticket-total">
            {cost ? `${amount(cost.total, 4)} USDT` : '--'}
          </Figure>
          <Figure label={t('options.breakEven')} testId="ticket-break-even">
            {perUnit ? price(breakEven(pick.kind, pick.strike, perUnit)) : '--'}
          </Figure>
          <Figure label={t('options.maxLoss')} testId="ticket-max-loss">
            {cost ? `${amount(cost.total, 4)} USDT` : '--'}
          </Figure>
          <Figure label={t('trade.available')}>{amount(available, 2)} USDT</Figure>
        </div>
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
