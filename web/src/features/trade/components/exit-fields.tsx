import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { AmountInput, Choice } from '../../../components/form-bits'
import { sanitiseAmount } from '../../../lib/order-math'
import { useFormatters } from '../../../lib/use-formatters'
import { exitProblems, type ExitProblems, type ExitRule as ExitSide, type TriggerBy } from '../lib/tp-sl'

interface ExitState {
  takeProfit: string
  stopLoss: string
  triggerBy: TriggerBy
}

/**
 * A take-profit and stop-loss set with a contract order: the fields (take-profit first), what they
 * add to the order, and whether a rule they break blocks the submit. The rules show as they are
 * typed, against the price the order opens at.
 */
/** `places`: the pair's price places, which the gateway judges these prices by (contractPrice scale). */
export function useExitEntry(direction: 'long' | 'short', openingPrice: string, places: number) {
  const [shown, setShown] = useState(false)
  const [state, setState] = useState<ExitState>({ takeProfit: '', stopLoss: '', triggerBy: 'last' })
  const problems = exitProblems(direction, openingPrice, state.takeProfit, state.stopLoss)
  const named = shown && (state.takeProfit !== '' || state.stopLoss !== '')
  return {
    body: named
      ? {
          ...(state.takeProfit ? { takeProfit: state.takeProfit } : {}),
          ...(state.stopLoss ? { stopLoss: state.stopLoss } : {}),
          triggerBy: state.triggerBy,
        }
      : {},
    blocked: shown && (problems.takeProfit !== null || problems.stopLoss !== null),
    reset: () => setState((current) => ({ ...current, takeProfit: '', stopLoss: '' })),
    fields: (
      <ExitFields
        shown={shown}
        onShow={setShown}
        state={state}
        onChange={(changes) => setState((current) => ({ ...current, ...changes }))}
        problems={problems}
        places={places}
        openingPrice={openingPrice}
      />
    ),
  }
}

function ExitFields({
  shown,
  onShow,
  state,
  onChange,
  problems,
  openingPrice,
  places,
}: {
  shown: boolean
  onShow: (shown: boolean) => void
  state: ExitState
  onChange: (changes: Partial<ExitState>) => void
  problems: ExitProblems
  openingPrice: string
  places: number
}) {
  const { t } = useTranslation()
  const ruleText = useExitRuleText()
  const rule = (field: 'takeProfit' | 'stopLoss') => ({
    error: ruleText(field, problems[field], openingPrice, 'opening'),
    errorTestId: `${field}-rule`,
  })
  return (
    <div className="exit-fields" data-testid="exit-fields">
      <label className="check">
        <input
          type="checkbox"
          checked={shown}
          onChange={(event) => onShow(event.target.checked)}
          data-testid="exits-toggle"
        />
        <span>{t('trade.takeProfitStopLoss')}</span>
      </label>
      {shown && (
        <>
          <AmountInput
            label={t('trade.takeProfitPrice')}
            name="take-profit"
            unit="usdt"
            value={state.takeProfit}
            onChange={(text) => onChange({ takeProfit: sanitiseAmount(text, places) })}
            {...rule('takeProfit')}
          />
          <AmountInput
            label={t('trade.stopLossPrice')}
            name="stop-loss"
            unit="usdt"
            value={state.stopLoss}
            onChange={(text) => onChange({ stopLoss: sanitiseAmount(text, places) })}
            {...rule('stopLoss')}
          />
          <TriggerChoice value={state.triggerBy} onChange={(triggerBy) => onChange({ triggerBy })} />
        </>
      )}
    </div>
  )
}

/**
 * The rule a typed take-profit or stop-loss breaks, said as it is typed (the field's error): against
 * the price an order opens at, or, for a position already open, against the current price (what the
 * exchange checks). Null while the price keeps the rule.
 */
export function useExitRuleText() {
  const { t } = useTranslation()
  const formatters = useFormatters()
  return (
    field: 'takeProfit' | 'stopLoss',
    side: ExitSide | null,
    price: string,
    against: 'opening' | 'now',
  ): string | null => {
    if (!side) return null
    const key = against === 'now' ? `trade.exits.againstNow.${field}_${side}` : `trade.exits.${field}_${side}`
    return t(key, { price: formatters.price(price) })
  }
}

/** Which price an exit watches, with a line saying what that means. */
export function TriggerChoice({
  value,
  onChange,
}: {
  value: TriggerBy
  onChange: (value: TriggerBy) => void
}) {
  const { t } = useTranslation()
  return (
    <>
      <span className="field-label">{t('trade.exits.triggerBy')}</span>
      <Choice
        label={t('trade.exits.triggerBy')}
        value={value}
        onChange={onChange}
        options={[
          { value: 'last', label: t('market.lastPrice') },
          { value: 'mark', label: t('trade.markPrice') },
        ]}
      />
      <p className="field-label" data-testid="trigger-hint">
        {t(`trade.exits.${value}Hint`)}
      </p>
    </>
  )
}
