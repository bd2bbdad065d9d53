import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { formatPercent, mul, type Period, type SecondOrder } from '@tradegate/shared'
import { SubmittingOverlay } from '../../../components/submitting-overlay'
import { useUserEvents } from '../../../lib/live'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { createSecondOrder } from '../api/create-second-order'
import { useBalances } from '../api/get-asset-balance'
import { useSecondOrders } from '../api/get-second-orders'
import { availableOf, formatCountdown, sanitiseAmount, secondsLeft } from '../lib/order-math'
import { AmountInput, Figure, FundPasswordField, OrderError } from './form-bits'
import { useOrderSubmit } from './order-submit'

/** Second contracts: pick a period, stake up or down, watch the countdown and the settlement. */
export function SecondPanel({ symbol, periods }: { symbol: string; periods: readonly Period[] }) {
  const { t } = useTranslation()
  const settings = useSettings()
  const balances = useBalances()
  const orders = useSecondOrders()
  const settlement = useUserEvents('SETTLEMENT')
  const { price, amount: formatAmount, dateTime } = useFormatters()
  const [periodId, setPeriodId] = useState<number | null>(null)
  const [amount, setAmount] = useState('')
  const [fundPwd, setFundPwd] = useState('')
  const refresh = () => {
    void balances.mutate()
    void orders.mutate()
  }
  const { submitting, error, run } = useOrderSubmit(refresh)
  const period = periods.find((row) => row.id === periodId) ?? periods[0]
  const settled = settlement?.data as SecondOrder | undefined

  useEffect(() => {
    if (settlement) refresh()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settlement])

  const available = availableOf(balances.data, 'usdt', 'platform')
  const place = (direction: 'up' | 'down') => (event?: FormEvent) => {
    event?.preventDefault()
    if (!period) return
    void run(async () => {
      await createSecondOrder({
        symbol,
        periodId: period.id,
        direction,
        amount,
        ...(settings.FUND_PASSWORD_SETTING.second ? { fundPwd } : {}),
      })
      showToast(t('trade.orderPlaced'))
    })
  }
  const rows = orders.data?.rows ?? []

  return (
    <>
      <section className="panel trade-form-area" aria-label={t('trade.tabs.SecondContract')}>
        <form className="order-form" onSubmit={place('up')} noValidate data-testid="second-form">
          <div className="field">
            <span className="field-label">{t('trade.period')}</span>
            <div className="period-grid" role="group" aria-label={t('trade.period')}>
              {periods.map((row) => (
                <button
                  key={row.id}
                  type="button"
                  className="period-chip"
                  aria-pressed={row.id === period?.id}
                  onClick={() => setPeriodId(row.id)}
                  data-period={row.seconds}
                >
                  <span className="period-seconds num">{row.seconds}s</span>
                  <span className="period-rate num up">+{formatPercent(mul(row.rate, 100))}%</span>
                </button>
              ))}
            </div>
          </div>
          <AmountInput
            label={t('trade.stake')}
            name="amount"
            unit="usdt"
            hint={period ? `${period.minAmount} – ${period.maxAmount}` : undefined}
            value={amount}
            onChange={(text) => setAmount(sanitiseAmount(text, 8))}
          />
          <div className="figures">
            <Figure label={t('trade.available')} testId="second-available">
              {formatAmount(available, 2)} USDT
            </Figure>
            <Figure label={t('trade.stakeLimits')}>
              {period
                ? `${formatAmount(period.minAmount, 2)} – ${formatAmount(period.maxAmount, 2)} USDT`
                : '--'}
            </Figure>
            <Figure label={t('trade.expectedProfit')}>
              {period ? formatAmount(mul(amount, period.rate), 4) : '0.0000'} USDT
            </Figure>
          </div>
          <FundPasswordField
            needed={settings.FUND_PASSWORD_SETTING.second}
            value={fundPwd}
            onChange={setFundPwd}
          />
          <OrderError message={error} />
          <div className="up-down">
            <button
              type="submit"
              className="button button-up"
              disabled={!amount || !period || submitting}
              data-testid="second-up"
            >
              {t('trade.up')}
            </button>
            <button
              type="button"
              className="button button-down"
              disabled={!amount || !period || submitting}
              onClick={() => place('down')()}
              data-testid="second-down"
            >
              {t('trade.down')}
            </button>
          </div>
        </form>
        <SubmittingOverlay visible={submitting} />
      </section>
      <section className="panel trade-orders-area">
        {settled && <SettlementResult order={settled} />}
        <h2 className="panel-title">{t('trade.myOrders')}</h2>
        <div className="table-scroll">
          <table className="data-table" data-testid="second-orders">
            <thead>
              <tr>
                <th className="desktop-only">{t('trade.time')}</th>
                <th className="desktop-only">{t('trade.pair')}</th>
                <th>{t('trade.direction')}</th>
                <th>{t('trade.stake')}</th>
                <th className="desktop-only">{t('trade.openPrice')}</th>
                <th>{t('trade.result')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((order) => (
                <tr key={order.id} data-order-status={order.status}>
                  <td className="num muted desktop-only">{dateTime(order.createdAt)}</td>
                  <td className="desktop-only">{order.symbol.toUpperCase()}</td>
                  <td className={order.direction === 'up' ? 'up' : 'down'}>
                    {t(`trade.${order.direction}`)} · {order.seconds}s
                  </td>
                  <td className="num">{formatAmount(order.amount, 2)}</td>
                  <td className="num desktop-only">{price(order.openPrice)}</td>
                  <td>
                    {order.status === 'open' ? (
                      <Countdown settleAt={order.settleAt} />
                    ) : (
                      <span className={`num ${order.status === 'lose' ? 'down' : 'up'}`}>
                        {t(`trade.status_${order.status}`)} {formatAmount(order.profit, 2)}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {rows.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
      </section>
    </>
  )
}

/** Seconds left until settlement, ticking; "settling" once the time is up and the result is awaited. */
function Countdown({ settleAt }: { settleAt: number }) {
  const { t } = useTranslation()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [])
  const left = secondsLeft(settleAt, now)
  return (
    <span className="countdown num" data-testid="second-countdown" data-seconds={left}>
      {left > 0 ? formatCountdown(left) : t('trade.settling')}
    </span>
  )
}

function SettlementResult({ order }: { order: SecondOrder }) {
  const { t } = useTranslation()
  const { price, amount: formatAmount } = useFormatters()
  const tone = order.status === 'lose' ? 'down' : 'up'
  return (
    <div
      className={`settlement ${tone}`}
      role="status"
      data-testid="second-result"
      data-status={order.status}
    >
      <strong>{t(`trade.status_${order.status}`)}</strong>
      <span className="num">
        {order.symbol.toUpperCase().replace(/USDT$/, '/USDT')} {t(`trade.${order.direction}`)} ·{' '}
        {price(order.openPrice)} → {price(order.closePrice)}
      </span>
      <span className="num settlement-profit">
        {order.status === 'win' ? '+' : ''}
        {formatAmount(order.profit, 2)} USDT
      </span>
    </div>
  )
}
