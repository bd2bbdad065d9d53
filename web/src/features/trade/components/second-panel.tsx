import { type FormEvent, memo, useEffect, useEffectEvent, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { mul, type Period, type SecondOrder } from '@tradegate/shared'
import { useUserEvents } from '../../../lib/live/stream-hooks'
import { useSettings } from '../../../lib/settings'
import { showOutcome } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { createSecondOrder } from '../api/create-second-order'
import { findSecondOrder } from '../api/find-trade-actions'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useSecondOrders } from '../api/get-second-orders'
import { availableOf, sanitiseAmount } from '../../../lib/order-math'
import { AmountInput, Figure } from '../../../components/form-bits'
import { OrderForm } from './order-form'
import { useSubmit } from '../../../lib/submit'
import { SecondOrders } from './second-orders'
import { PeriodChoice } from './period-choice'

/** Second contracts: pick a period, stake up or down, watch the countdown and the settlement. */
export const SecondPanel = memo(function SecondPanel({
  symbol,
  allPeriods,
}: {
  symbol: string
  /** every symbol's periods, as fetched, so the screen's renders pass the same list and memo holds */
  allPeriods: readonly Period[]
}) {
  const periods = allPeriods.filter((period) => period.symbol === symbol)
  const { t } = useTranslation()
  // USDT amounts and prices, by the places the gateway judges them by (the call table's USDT scale)
  const { balance, value, pnl, precisionOf } = useFormatters()
  const usdtPlaces = precisionOf('usdt')
  const settings = useSettings()
  const balances = useBalances()
  const orders = useSecondOrders()
  const latestSettlement = useUserEvents('SETTLEMENT')
  // options settle on the same stream; only second contracts belong to this panel
  const settlement = latestSettlement?.data.product === 'option' ? undefined : latestSettlement
  const [periodId, setPeriodId] = useState<number | null>(null)
  const [amount, setAmount] = useState('')
  const [fundPwd, setFundPwd] = useState('')
  const refresh = () => {
    void balances.mutate()
    void orders.mutate()
  }
  const flow = useSubmit({ money: true, checkWhere: 'submit.where.orders', onSettled: refresh })
  const period = periods.find((row) => row.id === periodId) ?? periods[0]

  const onSettlement = useEffectEvent(refresh)
  useEffect(() => {
    if (settlement) onSettlement()
  }, [settlement])

  const available = availableOf(balances.data, 'usdt', 'platform')
  const place = (direction: 'up' | 'down') => (event?: FormEvent) => {
    event?.preventDefault()
    if (!period) return
    void flow.run(
      async (signal) => {
        await createSecondOrder(
          {
            symbol,
            periodId: period.id,
            direction,
            amount,
            ...(settings.FUND_PASSWORD_SETTING.second ? { fundPwd } : {}),
          },
          { signal },
        )
        showOutcome(t('trade.orderPlaced'))
      },
      (sentAt) => findSecondOrder({ symbol, direction, amount }, sentAt),
    )
  }
  // busy is told, not disabled: a disabled button would drop the keyboard's focus to the page
  const disabled = !amount || !period
  const busy = flow.busy || undefined

  return (
    <>
      <OrderForm
        label={t('trade.tabs.SecondContract')}
        testId="second-form"
        onSubmit={place('up')}
        side={<PeriodChoice periods={periods} value={period?.id} onChange={setPeriodId} />}
        amount={
          <AmountInput
            label={t('trade.stake')}
            name="amount"
            unit="usdt"
            hint={period ? `${period.minAmount} – ${period.maxAmount}` : undefined}
            value={amount}
            onChange={(text) => setAmount(sanitiseAmount(text, usdtPlaces))}
          />
        }
        figures={
          <>
            <Figure label={t('trade.available')} testId="second-available">
              {balance(available, 2)} USDT
            </Figure>
            <Figure label={t('trade.stakeLimits')}>
              {period ? `${value(period.minAmount)} – ${value(period.maxAmount)} USDT` : '--'}
            </Figure>
            <Figure label={t('trade.expectedProfit')}>
              {pnl(period ? mul(amount, period.rate) : 0)} USDT
            </Figure>
          </>
        }
        fundPassword={{ needed: settings.FUND_PASSWORD_SETTING.second, value: fundPwd, onChange: setFundPwd }}
        flow={flow}
        submit={
          <div className="up-down">
            <button
              type="submit"
              className="button button-up"
              disabled={disabled}
              aria-disabled={busy}
              data-testid="second-up"
            >
              {t('trade.up')}
            </button>
            <button
              type="button"
              className="button button-down"
              disabled={disabled}
              aria-disabled={busy}
              onClick={() => place('down')()}
              data-testid="second-down"
            >
              {t('trade.down')}
            </button>
          </div>
        }
      />
      <SecondOrders rows={orders.data?.rows ?? []} settled={settlement?.data as SecondOrder | undefined} />
    </>
  )
})
