import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { div, type Balance, type ContractPair } from '@tradegate/shared'
import { useTicker } from '../../../lib/live/stream-hooks'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { submitContractOrder } from '../api/submit-contract-order'
import { findContractOrder } from '../api/find-trade-actions'
import { availableOf, contractPreview, leverageChoices, sanitiseAmount } from '../../../lib/order-math'
import { useOrderPrice } from '../lib/order-price'
import { AmountInput, Choice, PriceField } from '../../../components/form-bits'
import { OrderForm } from './order-form'
import { ContractFigures } from './order-figures'
import { useSubmit } from '../../../lib/submit'
import { TransferToggle } from './transfer-form'
import { useExitEntry } from './exit-fields'
import { useContractOptions } from './contract-options'
import { ContractOptionFields } from './contract-option-fields'
import { LeverageSlider } from './leverage-slider'

type Direction = 'long' | 'short'

/** Leveraged contracts: direction, leverage and size in shares (with its coin and USDT value), and the margin preview. */
export function ContractForm({
  pair,
  balances,
  onChanged,
}: {
  pair: ContractPair
  balances: readonly Balance[] | undefined
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const settings = useSettings()
  const ticker = useTicker(pair.symbol)
  const { amount: formatAmount } = useFormatters()
  const leverages = leverageChoices(pair)
  const [direction, setDirection] = useState<Direction>('long')
  const [leverage, setLeverage] = useState(leverages[1] ?? leverages[0] ?? 1)
  const [shares, setShares] = useState('')
  const [fundPwd, setFundPwd] = useState('')
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.orders',
    onSettled: onChanged,
    lookup: (sentAt) => findContractOrder({ symbol: pair.symbol, direction, shares }, sentAt),
  })
  const order = useOrderPrice({
    symbol: pair.symbol,
    close: ticker?.close,
    scale: pair.baseScale,
    initialType: 'market',
    limitAllowed: () => true,
  })
  const options = useContractOptions(pair.baseScale, order)
  const { price } = order
  // a stop-market opens at about its trigger; every other kind at its limit or the market
  const orderPrice = options.type === 'stopMarket' && options.trigger ? options.trigger : order.orderPrice
  const available = availableOf(balances, 'usdt', 'contract')
  const preview = contractPreview(shares || '0', leverage, orderPrice, direction, pair)
  const sharesNumberOk = /^\d+$/.test(shares) && Number(shares) > 0
  const coin = pair.coin.toUpperCase()
  const exits = useExitEntry(direction, orderPrice, pair.baseScale)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void flow.run(async (signal) => {
      const order = await submitContractOrder(
        {
          symbol: pair.symbol,
          direction,
          leverage,
          shares,
          ...options.body,
          ...(options.priced ? { price } : {}),
          ...(settings.FUND_PASSWORD_SETTING.contract ? { fundPwd } : {}),
          ...(options.reduceOnly ? {} : exits.body),
        },
        { signal },
      )
      showToast(t(order.status === 'filled' ? 'trade.positionOpened' : 'trade.orderPlaced'))
      setShares('')
      exits.reset()
      options.reset()
    })
  }

  return (
    <OrderForm
      label={t('trade.tabs.Ustandard')}
      testId="contract-form"
      onSubmit={submit}
      side={
        <Choice
          label={t('trade.direction')}
          value={direction}
          onChange={setDirection}
          tone={(value) => (value === 'long' ? 'up' : 'down')}
          options={[
            { value: 'long', label: t('trade.long') },
            { value: 'short', label: t('trade.short') },
          ]}
        />
      }
      type={
        <ContractOptionFields
          options={options}
          price={<PriceField limit={options.priced} unit="usdt" value={price} onChange={order.typePrice} />}
        />
      }
      amount={
        <AmountInput
          label={t('trade.shares')}
          name="shares"
          unit={t('trade.sharesUnit')}
          hint={`${pair.minShare} – ${pair.maxShare}`}
          value={shares}
          onChange={(text) => setShares(sanitiseAmount(text, 0))}
          note={
            <span data-testid="contract-size">
              ≈ {formatAmount(div(preview.value, orderPrice), 6)} {coin} · {formatAmount(preview.value, 2)}{' '}
              USDT
            </span>
          }
        />
      }
      extras={
        <>
          <LeverageSlider presets={leverages} value={leverage} onChange={setLeverage} />
          {!options.reduceOnly && exits.fields}
        </>
      }
      figures={<ContractFigures available={available} preview={preview} sized={sharesNumberOk} />}
      fundPassword={{ needed: settings.FUND_PASSWORD_SETTING.contract, value: fundPwd, onChange: setFundPwd }}
      flow={flow}
      submit={{
        label: t(direction === 'long' ? 'trade.openLong' : 'trade.openShort'),
        tone: direction === 'long' ? 'up' : 'down',
        disabled: !sharesNumberOk || (options.priced && !price) || options.blocked || exits.blocked,
        // a broken take-profit or stop-loss rule, or an option's, says so under its own field
        reason: !sharesNumberOk
          ? t('errors.sharesMustBePositive')
          : options.priced && !price
            ? t('errors.priceRequired')
            : null,
        testId: 'contract-submit',
      }}
      after={<TransferToggle available={availableOf(balances, 'usdt', 'platform')} onDone={onChanged} />}
    />
  )
}
