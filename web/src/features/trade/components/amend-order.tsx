import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { toDecimal, type CallBody, type ContractOrder } from '@tradegate/shared'
import { AmountInput, OrderError } from '../../../components/form-bits'
import { SubmitNotice } from '../../../components/submit-notice'
import { sanitiseAmount } from '../../../lib/order-math'
import { useSubmit } from '../../../lib/submit'
import { showOutcome } from '../../../lib/toast'
import { amendContractOrder } from '../api/amend-contract-order'
import { findOrderAmended } from '../api/find-trade-actions'

/**
 * Changes a resting order's limit, size or (while it waits) trigger in place: the order keeps its id
 * and time. Only the fields changed are sent.
 */
export function AmendOrderForm({
  order,
  scale,
  onDone,
}: {
  order: ContractOrder
  /** decimal places of the pair's prices */
  scale: number
  onDone: () => void
}) {
  const { t } = useTranslation()
  const priced = order.type === 'limit' || order.type === 'stopLimit'
  const waiting = order.triggerPrice !== undefined && order.triggeredAt === undefined
  const [price, setPrice] = useState(order.price)
  const [shares, setShares] = useState(order.shares)
  const [trigger, setTrigger] = useState(order.triggerPrice ?? '')
  const changed = (typed: string, was: string | undefined) =>
    typed !== '' && was !== undefined && !toDecimal(typed).equals(toDecimal(was))
  const body: CallBody<'contractOrderAmend'> = {
    id: order.id,
    ...(priced && changed(price, order.price) ? { price } : {}),
    ...(changed(shares, order.shares) ? { shares } : {}),
    ...(waiting && changed(trigger, order.triggerPrice) ? { triggerPrice: trigger } : {}),
  }
  const flow = useSubmit({ money: true, checkWhere: 'submit.where.orders', onSettled: onDone })
  const save = () =>
    void flow.run(
      async (signal) => {
        await amendContractOrder(body, { signal })
        showOutcome(t('trade.futures.orderAmended'))
      },
      () => findOrderAmended(body),
    )
  const field = (name: string, label: string, value: string, set: (text: string) => void, places: number) => (
    <AmountInput
      label={label}
      name={`${name}-${order.id}`}
      unit={name === 'shares' ? t('trade.sharesUnit') : 'USDT'}
      value={value}
      onChange={(text) => set(sanitiseAmount(text, places))}
    />
  )
  return (
    <div className="inline-form amend-form" data-testid="amend-form">
      <strong>
        {t('trade.futures.amend')} · {order.symbol.toUpperCase().replace(/USDT$/, '')}{' '}
        {t(`trade.${order.direction}`)} <span className="num">{order.leverage}×</span>
      </strong>
      {priced && field('price', t('trade.price'), price, setPrice, scale)}
      {field('shares', t('trade.shares'), shares, setShares, 0)}
      {waiting && field('trigger', t('trade.futures.triggerPrice'), trigger, setTrigger, scale)}
      <OrderError message={flow.error} />
      <SubmitNotice submit={flow} />
      <button
        type="button"
        className="button button-small button-up"
        disabled={Object.keys(body).length === 1}
        aria-disabled={flow.busy || undefined}
        onClick={save}
        data-testid="amend-save"
      >
        {t('trade.futures.amendSave')}
      </button>
    </div>
  )
}
