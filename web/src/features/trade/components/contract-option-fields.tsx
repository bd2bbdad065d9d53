import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
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
      <SelectField
        label={t('trade.orderType')}
        name="contract-type"
        id="order-contract-type"
        value={options.type}
        onValueChange={(value) => options.setType(value as ContractOrderType)}
        options={TYPES.map((value) => ({ value, label: t(TYPE_LABELS[value]) }))}
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
        <SelectField
          label={t('trade.futures.timeInForce')}
          name="time-in-force"
          id="order-time-in-force"
          value={options.timeInForce}
          onValueChange={(value) => options.setTimeInForce(value as TimeInForce)}
          options={LIVES.map((value) => ({ value, label: value }))}
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
