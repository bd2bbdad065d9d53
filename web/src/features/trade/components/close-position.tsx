import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { mul, toDecimal, type Position } from '@tradegate/shared'
import { showOutcome } from '../../../lib/toast'
import { stopPosition } from '../api/stop-position'
import { findPositionClose } from '../api/find-trade-actions'
import { sanitiseAmount } from '../../../lib/order-math'
import { useFormatters } from '../../../lib/use-formatters'
import { AmountInput, Choice, OrderError } from '../../../components/form-bits'
import { useSubmit } from '../../../lib/submit'
import { SubmitNotice } from '../../../components/submit-notice'

const PERCENTS = [25, 50, 75, 100]

/**
 * Closing asks first: how much (shares, or a percentage of the position) and how (at market, or a
 * close order resting at a limit price). Nothing is sent until "Confirm close".
 */
export function ClosePositionForm({
  position,
  markPrice,
  onCancel,
  onChanged,
}: {
  position: Position
  markPrice: string
  onCancel: () => void
  onChanged: () => void
}) {
  const { t } = useTranslation()
  // USDT amounts and prices, by the places the gateway judges them by (the call table's USDT scale)
  const usdtPlaces = useFormatters().precisionOf('usdt')
  const [shares, setShares] = useState(position.shares)
  const [type, setType] = useState<'market' | 'limit'>('market')
  const [price, setPrice] = useState(markPrice)
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.positions',
    toastOutcome: true,
    lookup: (sentAt) => findPositionClose(position, type === 'limit', sentAt),
  })
  const held = toDecimal(position.shares)
  const chosen = toDecimal(shares)
  const whole = chosen.equals(held)
  const valid =
    chosen.greaterThan(0) &&
    chosen.lessThanOrEqualTo(held) &&
    (type === 'market' || toDecimal(price).greaterThan(0))

  const confirm = () =>
    void flow.run(async (signal) => {
      await stopPosition(
        position.id,
        { ...(whole ? {} : { shares: chosen.toFixed() }), ...(type === 'limit' ? { price } : {}) },
        { signal },
      )
      showOutcome(
        t(type === 'limit' ? 'desk.closeOrderPlaced' : whole ? 'trade.positionClosed' : 'desk.partlyClosed'),
      )
      onChanged()
    })

  return (
    <div
      className="inline-form close-form"
      data-testid="close-form"
      role="group"
      aria-label={t('trade.closePosition')}
    >
      <AmountInput
        label={t('desk.sharesToClose')}
        name={`close-shares-${position.id}`}
        unit={t('trade.sharesUnit')}
        value={shares}
        onChange={(text) => setShares(sanitiseAmount(text, 0))}
        note={t('desk.ofShares', { count: Number(position.shares), shares: position.shares })}
      />
      <div className="percent-steps" role="group" aria-label={t('desk.sharesToClose')}>
        {PERCENTS.map((percent) => {
          const part = mul(held, percent).div(100).floor().toFixed()
          return (
            <button
              key={percent}
              type="button"
              className={part === shares ? 'active' : undefined}
              disabled={part === '0'}
              onClick={() => setShares(part)}
              data-close-percent={percent}
            >
              {percent}%
            </button>
          )
        })}
      </div>
      <Choice
        label={t('trade.orderType')}
        value={type}
        onChange={setType}
        options={[
          { value: 'market', label: t('trade.market') },
          { value: 'limit', label: t('trade.limit') },
        ]}
      />
      {type === 'limit' && (
        <AmountInput
          label={t('trade.price')}
          name={`close-price-${position.id}`}
          unit="usdt"
          value={price}
          onChange={(text) => setPrice(sanitiseAmount(text, usdtPlaces))}
        />
      )}
      <OrderError message={flow.error} />
      <SubmitNotice submit={flow} />
      <div className="position-actions">
        <button type="button" className="button button-small" onClick={onCancel}>
          {t('desk.back')}
        </button>
        <button
          type="button"
          className="button button-small button-down"
          disabled={!valid}
          aria-disabled={flow.busy || undefined}
          onClick={confirm}
          data-testid="close-confirm"
        >
          {t('desk.confirmClose')}
        </button>
      </div>
    </div>
  )
}
