import type { ReactNode } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { ContractOrderType, TimeInForce } from '@tradegate/shared'
import { AmountInput } from '../../../components/form-bits'
import { SelectField } from '../../../components/form'
import type { ContractOptions } from './contract-options'
import { TriggerChoice } from './exit-fields'

const TYPES: readonly ContractOrderType[] = ['market', 'limit', 'stopMarket', 'stopLimit']
const LIVES: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK']
const TYPE_LABELS: Record<ContractOrderType, string> = {
  market: 'trade.market',
  limit: 'trade.limit',
  stopMarket: 'trade.futures.stopMarket',
  stopLimit: 'trade.futures.stopLimit',
}

/** The order kind, a stop's trigger, the price field, a limit's time in force, post-only and reduce-only. */
export function ContractOptionFields({ options, price }: { options: ContractOptions; price: ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="contract-options" data-testid="contract-options">
      <ChoiceSelect
        label={t('trade.orderType')}
        name="contract-type"
        value={options.type}
        choices={TYPES}
        labelOf={(value) => t(TYPE_LABELS[value])}
        onChange={options.setType}
      />
      {options.stop && (
        <>
          <AmountInput
            label={t('trade.futures.triggerPrice')}
            name="trigger"
            unit="USDT"
            value={options.trigger}
            onChange={options.setTrigger}
          />
          <TriggerChoice value={options.triggerBy} onChange={options.setTriggerBy} />
        </>
      )}
      {price}
      {options.type === 'limit' && (
        <ChoiceSelect
          label={t('trade.futures.timeInForce')}
          name="time-in-force"
          value={options.timeInForce}
          choices={LIVES}
          labelOf={(value) => value}
          onChange={options.setTimeInForce}
        />
      )}
      {options.type === 'limit' && (
        <p className="field-label" data-testid="time-in-force-hint">
          {t(`trade.futures.tif_${options.timeInForce}`)}
        </p>
      )}
      <div className="option-checks">
        {options.canPostOnly && (
          <Check
            label={t('trade.futures.postOnly')}
            checked={options.postOnly}
            onChange={options.setPostOnly}
            testId="post-only"
          />
        )}
        <Check
          label={t('trade.futures.reduceOnly')}
          checked={options.reduceOnly}
          onChange={options.setReduceOnly}
          testId="reduce-only"
        />
      </div>
    </div>
  )
}

/** A select of one of a fixed list of values, typed by the list: its id is order-<name>. */
function ChoiceSelect<Value extends string>({
  label,
  name,
  value,
  choices,
  labelOf,
  onChange,
}: {
  label: string
  name: string
  value: Value
  choices: readonly Value[]
  labelOf: (value: Value) => string
  onChange: (value: Value) => void
}) {
  return (
    <SelectField
      label={label}
      name={name}
      id={`order-${name}`}
      value={value}
      // the options are the list's own values, so the chosen one is one of them
      onValueChange={(chosen) => onChange(chosen as Value)}
      options={choices.map((choice) => ({ value: choice, label: labelOf(choice) }))}
    />
  )
}

function Check({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
  testId: string
}) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
      <span>{label}</span>
    </label>
  )
}
