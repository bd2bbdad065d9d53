import { memo } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { div, type Balance, type ContractPair } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { availableOf, contractPreview } from '../../../lib/order-math'
import { AmountInput, Choice, PriceField } from '../../../components/form-bits'
import { OrderForm } from './order-form'
import { ContractFigures } from './order-figures'
import { TransferToggle } from './transfer-form'
import { ContractOptionFields } from './contract-option-fields'
import { LeverageSlider } from './leverage-slider'
import { useContractOrder } from './use-contract-order'

/**
 * Leveraged contracts: direction, leverage and size in shares (with its coin and USDT value), and the
 * margin preview. Memoised: the panel around it re-renders on every answer of its position and order
 * lists, none of which the form shows.
 */
export const ContractForm = memo(function ContractForm({
  pair,
  balances,
  onChanged,
}: {
  pair: ContractPair
  balances: readonly Balance[] | undefined
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { quantity, value } = useFormatters()
  const form = useContractOrder(pair, onChanged)
  const { direction, shares, options, exits, orderPrice } = form
  const { price } = form.order
  const preview = contractPreview(shares || '0', form.leverage, orderPrice, direction, pair)
  const sharesNumberOk = /^\d+$/.test(shares) && Number(shares) > 0

  return (
    <OrderForm
      label={t('trade.tabs.Ustandard')}
      testId="contract-form"
      onSubmit={form.submit}
      side={
        <Choice
          label={t('trade.direction')}
          value={direction}
          onChange={form.setDirection}
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
          price={
            <PriceField limit={options.priced} unit="usdt" value={price} onChange={form.order.typePrice} />
          }
        />
      }
      amount={
        <AmountInput
          label={t('trade.shares')}
          name="shares"
          unit={t('trade.sharesUnit')}
          hint={`${pair.minShare} – ${pair.maxShare}`}
          value={shares}
          onChange={form.setShares}
          note={
            <span data-testid="contract-size">
              ≈ {quantity(div(preview.value, orderPrice), 6)} {pair.coin.toUpperCase()} ·{' '}
              {value(preview.value)} USDT
            </span>
          }
        />
      }
      extras={
        <>
          <LeverageSlider presets={form.leverages} value={form.leverage} onChange={form.setLeverage} />
          {!options.reduceOnly && exits.fields}
        </>
      }
      figures={
        <ContractFigures
          available={availableOf(balances, 'usdt', 'contract')}
          preview={preview}
          sized={sharesNumberOk}
        />
      }
      fundPassword={form.fundPassword}
      flow={form.flow}
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
})
