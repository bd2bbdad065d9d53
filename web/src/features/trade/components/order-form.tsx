import type { FormEvent, ReactNode } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useDisabledReason } from '../../../components/form'
import { SubmittingOverlay } from '../../../components/submitting-overlay'
import { SubmitNotice } from '../../../components/submit-notice'
import type { Submit } from '../../../lib/submit'
import { Choice, FundPasswordField, OrderError, PriceField } from '../../../components/form-bits'
import type { OrderType } from '../lib/order-price'

export interface OrderSubmitButton {
  label: string
  tone: 'up' | 'down'
  disabled: boolean
  /** why it is disabled, told to a screen reader on the button */
  reason?: string | null
  testId: string
}

/**
 * The one order-form layout every trading tab shares: side, type, price, amount, the tab's extras,
 * the totals, the fund password, the refusal and the submit button(s), in that order.
 */
export function OrderForm({
  label,
  testId,
  onSubmit,
  side,
  type,
  price,
  amount,
  extras,
  figures,
  fundPassword,
  flow,
  submit,
  after,
}: {
  label: string
  testId: string
  onSubmit: (event: FormEvent) => void
  side?: ReactNode
  type?: ReactNode
  price?: ReactNode
  amount: ReactNode
  extras?: ReactNode
  figures: ReactNode
  fundPassword: { needed: boolean; value: string; onChange: (value: string) => void }
  /** the form's submission: its refusal, its unconfirmed state and outcome, the overlay */
  flow: Submit
  /** one button, or several (up and down) whose first is the form's submit */
  submit: OrderSubmitButton | ReactNode
  /** below the form, inside the panel (e.g. the transfer link) */
  after?: ReactNode
}) {
  return (
    <section className="panel trade-form-area" aria-label={label}>
      <form className="order-form" onSubmit={onSubmit} noValidate data-testid={testId}>
        {side}
        {type}
        {price}
        {amount}
        {extras}
        <div className="figures">{figures}</div>
        <FundPasswordField {...fundPassword} />
        <OrderError message={flow.error} />
        <SubmitNotice submit={flow} />
        {isButton(submit) ? <OrderSubmit submit={submit} busy={flow.busy} /> : submit}
      </form>
      {after}
      <SubmittingOverlay submit={flow} />
    </section>
  )
}

/**
 * While the order is sent the button is aria-disabled, not disabled, so it keeps focus (a disabled
 * button drops focus to the page body); the flow ignores a second submission meanwhile.
 */
function OrderSubmit({ submit, busy }: { submit: OrderSubmitButton; busy: boolean }) {
  const why = useDisabledReason(submit.disabled, submit.reason)
  return (
    <>
      <button
        type="submit"
        className={`button button-block button-${submit.tone}`}
        disabled={submit.disabled}
        aria-disabled={busy || undefined}
        aria-describedby={why.describedBy}
        data-testid={submit.testId}
      >
        {submit.label}
      </button>
      {why.node}
    </>
  )
}

function isButton(value: unknown): value is OrderSubmitButton {
  return typeof value === 'object' && value !== null && 'testId' in value && 'tone' in value
}

/** Market or limit, and the price field that goes with the choice. */
export function OrderTypeAndPrice({
  order,
  unit,
  disabled,
}: {
  order: { type: OrderType; price: string; chooseType(type: OrderType): void; typePrice(text: string): void }
  unit: string
  /** order types the pair does not offer for the chosen side */
  disabled?: (type: OrderType) => boolean
}) {
  const { t } = useTranslation()
  return (
    <>
      <Choice
        label={t('trade.orderType')}
        value={order.type}
        onChange={order.chooseType}
        options={[
          { value: 'market', label: t('trade.market'), disabled: disabled?.('market') },
          { value: 'limit', label: t('trade.limit'), disabled: disabled?.('limit') },
        ]}
      />
      <PriceField limit={order.type === 'limit'} unit={unit} value={order.price} onChange={order.typePrice} />
    </>
  )
}
