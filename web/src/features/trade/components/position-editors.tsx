import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { add, sub, type LossSetting, type Position } from '@tradegate/shared'
import { showOutcome } from '../../../lib/toast'
import { adjustMargin } from '../api/adjust-margin'
import { cancelLoss } from '../api/cancel-loss'
import { setLoss } from '../api/set-loss'
import { findLossCancelled, findLossSet, findMargin } from '../api/find-trade-actions'
import { sanitiseAmount } from '../../../lib/order-math'
import { useFormatters } from '../../../lib/use-formatters'
import { AmountInput, OrderError } from '../../../components/form-bits'
import { useSubmit } from '../../../lib/submit'
import { SubmitNotice } from '../../../components/submit-notice'
import { exitProblems, type TriggerBy } from '../lib/tp-sl'
import { TriggerChoice, useExitRuleText } from './exit-fields'

// The forms a position card opens: margin, and stop loss / take profit.

export function MarginEditor({ position, onChanged }: { position: Position; onChanged: () => void }) {
  const { t } = useTranslation()
  // USDT amounts and prices, by the places the gateway judges them by (the call table's USDT scale)
  const usdtPlaces = useFormatters().precisionOf('usdt')
  const [money, setMoney] = useState('')
  const flow = useSubmit({ money: true, checkWhere: 'submit.where.positions', onSettled: onChanged })
  const adjust = (direction: 'add' | 'remove') =>
    void flow.run(
      async (signal) => {
        await adjustMargin(position.id, money, direction, { signal })
        showOutcome(t('trade.marginAdjusted'))
        setMoney('')
      },
      () => findMargin(position.id, (direction === 'add' ? add : sub)(position.margin, money).toFixed()),
    )
  return (
    <div className="inline-form" data-testid="margin-editor">
      <AmountInput
        label={t('trade.marginAmount')}
        name={`margin-${position.id}`}
        unit="usdt"
        value={money}
        onChange={(text) => setMoney(sanitiseAmount(text, usdtPlaces))}
      />
      <div className="position-actions">
        <button
          type="button"
          className="button button-small button-up"
          disabled={!money}
          aria-disabled={flow.busy || undefined}
          onClick={() => adjust('add')}
          data-testid="margin-add"
        >
          {t('trade.addMargin')}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={!money}
          aria-disabled={flow.busy || undefined}
          onClick={() => adjust('remove')}
          data-testid="margin-remove"
        >
          {t('trade.removeMargin')}
        </button>
      </div>
      <OrderError message={flow.error} />
      <SubmitNotice submit={flow} />
    </div>
  )
}

/** A setting's price as typed text; "0" means none. */
function exitText(value: string | undefined): string {
  return value === undefined || value === '0' ? '' : value
}

/**
 * Take profit and stop loss for an open position, each checked as it is typed against the current
 * price (the exchange refuses one on the wrong side of it), and the price they watch.
 */
export function LossEditor({
  position,
  loss,
  currentPrice,
  onChanged,
}: {
  position: Position
  loss: LossSetting | undefined
  currentPrice: string
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const ruleText = useExitRuleText()
  // USDT amounts and prices, by the places the gateway judges them by (the call table's USDT scale)
  const usdtPlaces = useFormatters().precisionOf('usdt')
  // the editor opens on the setting in force, so saving a new take-profit keeps the stop-loss
  const [stopLoss, setStopLoss] = useState(exitText(loss?.stopLoss))
  const [takeProfit, setTakeProfit] = useState(exitText(loss?.takeProfit))
  const [triggerBy, setTriggerBy] = useState<TriggerBy>(loss?.triggerBy ?? 'last')
  const problems = exitProblems(position.direction, currentPrice, takeProfit, stopLoss)
  const blocked = problems.takeProfit !== null || problems.stopLoss !== null
  const flow = useSubmit({ money: true, checkWhere: 'submit.where.positions', onSettled: onChanged })
  const setting = {
    positionId: position.id,
    ...(stopLoss ? { stopLoss } : {}),
    ...(takeProfit ? { takeProfit } : {}),
    triggerBy,
  }
  const save = () =>
    void flow.run(
      async (signal) => {
        await setLoss(setting, { signal })
        showOutcome(t('trade.lossSaved'))
      },
      () => findLossSet(setting),
    )
  const cancel = (id: number) =>
    void flow.run(
      async (signal) => {
        await cancelLoss(id, { signal })
        showOutcome(t('trade.lossCancelled'))
      },
      () => findLossCancelled(id),
    )
  return (
    <div className="inline-form" data-testid="loss-editor">
      <AmountInput
        label={t('trade.takeProfitPrice')}
        name={`take-profit-${position.id}`}
        unit="usdt"
        value={takeProfit}
        onChange={(text) => setTakeProfit(sanitiseAmount(text, usdtPlaces))}
        error={ruleText('takeProfit', problems.takeProfit, currentPrice, 'now')}
        errorTestId="takeProfit-rule"
      />
      <AmountInput
        label={t('trade.stopLossPrice')}
        name={`stop-loss-${position.id}`}
        unit="usdt"
        value={stopLoss}
        onChange={(text) => setStopLoss(sanitiseAmount(text, usdtPlaces))}
        error={ruleText('stopLoss', problems.stopLoss, currentPrice, 'now')}
        errorTestId="stopLoss-rule"
      />
      <TriggerChoice value={triggerBy} onChange={setTriggerBy} />
      <div className="position-actions">
        <button
          type="button"
          className="button button-small button-primary"
          disabled={(!stopLoss && !takeProfit) || blocked}
          aria-disabled={flow.busy || undefined}
          onClick={save}
          data-testid="loss-save"
        >
          {t('trade.saveLoss')}
        </button>
        {loss && (
          <button
            type="button"
            className="button button-small"
            aria-disabled={flow.busy || undefined}
            onClick={() => cancel(loss.id)}
            data-testid="loss-cancel"
          >
            {t('trade.cancelLoss')}
          </button>
        )}
      </div>
      <OrderError message={flow.error} />
      <SubmitNotice submit={flow} />
    </div>
  )
}
