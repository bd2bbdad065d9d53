import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContractOrderType, TimeInForce, TriggerBy } from '@tradegate/shared'
import { AmountInput } from '../../../components/form-bits'
import { SelectField } from '../../../components/form'
import { sanitiseAmount } from '../../../lib/order-math'
import { TriggerChoice } from './exit-fields'

const TYPES: readonly ContractOrderType[] = ['market', 'limit', 'stopMarket', 'stopLimit']
const LIVES: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK']
const TYPE_LABELS: Record<ContractOrderType, string> = {
  market: 'trade.market',
  limit: 'trade.limit',
  stopMarket: 'trade.futures.stopMarket',
  stopLimit: 'trade.futures.stopLimit',
}

/**
 * A contract order's kind and what goes with it: the trigger of a stop order and the price it
 * watches, a limit's time in force and post-only, and reduce-only. Only what the kind takes is sent.
 */
export function useContractOptions(
  scale: number,
  /** the form's market-or-limit price state: a price tapped in the book makes the order a limit */
  order: { type: 'market' | 'limit'; chooseType(type: 'market' | 'limit'): void },
) {
  const [chosen, choose] = useState<ContractOrderType>('market')
  const type = chosen === 'market' && order.type === 'limit' ? 'limit' : chosen
  const setType = (next: ContractOrderType) => {
    choose(next)
    order.chooseType(next === 'limit' || next === 'stopLimit' ? 'limit' : 'market')
  }
  const [trigger, setTrigger] = useState('')
  const [triggerBy, setTriggerBy] = useState<TriggerBy>('last')
  const [timeInForce, setTimeInForce] = useState<TimeInForce>('GTC')
  const [postOnly, setPostOnly] = useState(false)
  const [reduceOnly, setReduceOnly] = useState(false)
  const stop = type === 'stopMarket' || type === 'stopLimit'
  const plainLimit = type === 'limit'
  const canPostOnly = plainLimit && timeInForce === 'GTC'
  return {
    type,
    setType,
    /** the kind rests at a price the user types */
    priced: type === 'limit' || type === 'stopLimit',
    trigger,
    reduceOnly,
    blocked: stop && !trigger,
    body: {
      type,
      ...(stop ? { triggerPrice: trigger, triggerBy } : {}),
      ...(plainLimit ? { timeInForce } : {}),
      ...(canPostOnly && postOnly ? { postOnly: true } : {}),
      ...(reduceOnly ? { reduceOnly: true } : {}),
    },
    reset: () => setTrigger(''),
    fields: (price: ReactNode) => (
      <ContractOptionFields
        {...{ type, setType, stop, plainLimit, canPostOnly, price, triggerBy, setTriggerBy }}
        trigger={trigger}
        setTrigger={(text) => setTrigger(sanitiseAmount(text, scale))}
        timeInForce={timeInForce}
        setTimeInForce={setTimeInForce}
        postOnly={postOnly}
        setPostOnly={setPostOnly}
        reduceOnly={reduceOnly}
        setReduceOnly={setReduceOnly}
      />
    ),
  }
}

function ContractOptionFields(props: {
  type: ContractOrderType
  setType: (type: ContractOrderType) => void
  stop: boolean
  plainLimit: boolean
  canPostOnly: boolean
  price: ReactNode
  trigger: string
  setTrigger: (text: string) => void
  triggerBy: TriggerBy
  setTriggerBy: (value: TriggerBy) => void
  timeInForce: TimeInForce
  setTimeInForce: (value: TimeInForce) => void
  postOnly: boolean
  setPostOnly: (value: boolean) => void
  reduceOnly: boolean
  setReduceOnly: (value: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <div className="contract-options" data-testid="contract-options">
      <SelectField
        label={t('trade.orderType')}
        name="contract-type"
        id="order-contract-type"
        value={props.type}
        onValueChange={(value) => props.setType(value as ContractOrderType)}
        options={TYPES.map((value) => ({ value, label: t(TYPE_LABELS[value]) }))}
      />
      {props.stop && (
        <>
          <AmountInput
            label={t('trade.futures.triggerPrice')}
            name="trigger"
            unit="USDT"
            value={props.trigger}
            onChange={props.setTrigger}
          />
          <TriggerChoice value={props.triggerBy} onChange={props.setTriggerBy} />
        </>
      )}
      {props.price}
      {props.plainLimit && (
        <SelectField
          label={t('trade.futures.timeInForce')}
          name="time-in-force"
          id="order-time-in-force"
          value={props.timeInForce}
          onValueChange={(value) => props.setTimeInForce(value as TimeInForce)}
          options={LIVES.map((value) => ({ value, label: t(`trade.futures.tif_${value}`) }))}
        />
      )}
      <div className="option-checks">
        {props.canPostOnly && (
          <Check
            label={t('trade.futures.postOnly')}
            checked={props.postOnly}
            onChange={props.setPostOnly}
            testId="post-only"
          />
        )}
        <Check
          label={t('trade.futures.reduceOnly')}
          checked={props.reduceOnly}
          onChange={props.setReduceOnly}
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
