import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { SpotPair } from '@tradegate/shared'
import { SubmittingOverlay } from '../../../components/submitting-overlay'
import { useTicker } from '../../../lib/live'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../api/get-asset-balance'
import { useSpotOrders } from '../api/get-spot-orders'
import { submitSpotOrder } from '../api/submit-spot-order'
import { availableOf, sanitiseAmount, spotAmountForPercent, spotEstimate } from '../lib/order-math'
import { AmountInput, Choice, Figure, FundPasswordField, OrderError, PercentSlider } from './form-bits'
import { useOrderSubmit } from './order-submit'

type Side = 'buy' | 'sell'
type OrderType = 'market' | 'limit'

/** Spot buy and sell, market or limit, within the pair's limits, and the user's orders on the pair. */
export function SpotPanel({ pair }: { pair: SpotPair }) {
  const { t } = useTranslation()
  const settings = useSettings()
  const ticker = useTicker(pair.symbol)
  const balances = useBalances()
  const orders = useSpotOrders(pair.symbol)
  const { price: formatPrice, amount: formatAmount, dateTime } = useFormatters()
  const [side, setSide] = useState<Side>('buy')
  const [type, setType] = useState<OrderType>(pair.marketBuy ? 'market' : 'limit')
  const [price, setPrice] = useState('')
  const [amount, setAmount] = useState('')
  const [percent, setPercent] = useState(0)
  const [fundPwd, setFundPwd] = useState('')
  const { submitting, error, run } = useOrderSubmit(() => {
    void balances.mutate()
    void orders.mutate()
  })

  const coin = pair.coin.toLowerCase()
  const quote = pair.baseCoin.toLowerCase()
  const available = availableOf(balances.data, side === 'buy' ? quote : coin, 'platform')
  const lastPrice = ticker?.close ?? '0'
  const orderPrice = type === 'limit' ? price : lastPrice
  const { total, fee } = spotEstimate(amount, orderPrice, pair)
  const allowed = (candidate: OrderType, forSide: Side) =>
    forSide === 'buy'
      ? candidate === 'market'
        ? pair.marketBuy
        : pair.limitedBuy
      : candidate === 'market'
        ? pair.marketSell
        : pair.limitedSell
  const typeAllowed = allowed(type, side)

  const choosePercent = (next: number) => {
    setPercent(next)
    setAmount(spotAmountForPercent(next, side, available, orderPrice, pair))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const order = await submitSpotOrder({
        symbol: pair.symbol,
        side,
        type,
        amount,
        ...(type === 'limit' ? { price } : {}),
        ...(settings.FUND_PASSWORD_SETTING.spot ? { fundPwd } : {}),
      })
      showToast(t(order.status === 'filled' ? 'trade.orderFilled' : 'trade.orderPlaced'))
      setAmount('')
      setPercent(0)
    })
  }

  return (
    <>
      <section className="panel trade-form-area" aria-label={t('trade.tabs.BBTrading')}>
        <form className="order-form" onSubmit={submit} noValidate data-testid="spot-form">
          <Choice
            label={t('trade.side')}
            value={side}
            onChange={(next) => {
              setSide(next)
              setPercent(0)
            }}
            tone={(value) => (value === 'buy' ? 'up' : 'down')}
            options={[
              { value: 'buy', label: t('trade.buy') },
              { value: 'sell', label: t('trade.sell') },
            ]}
          />
          <Choice
            label={t('trade.orderType')}
            value={type}
            onChange={setType}
            options={[
              { value: 'market', label: t('trade.market'), disabled: !allowed('market', side) },
              { value: 'limit', label: t('trade.limit'), disabled: !allowed('limit', side) },
            ]}
          />
          {type === 'limit' ? (
            <AmountInput
              label={t('trade.price')}
              name="price"
              unit={quote}
              value={price}
              onChange={(text) => setPrice(sanitiseAmount(text, pair.basePrecision))}
            />
          ) : (
            <div className="readonly-input">
              <span className="field-label">{t('trade.price')}</span>
              <span>{t('trade.bestMarketPrice')}</span>
            </div>
          )}
          <AmountInput
            label={t('trade.amount')}
            name="amount"
            unit={coin}
            value={amount}
            onChange={(text) => {
              setAmount(sanitiseAmount(text, pair.coinPrecision))
              setPercent(0)
            }}
          />
          <PercentSlider value={percent} onChange={choosePercent} />
          <div className="figures">
            <Figure label={t('trade.available')} testId="spot-available">
              {formatAmount(available, side === 'buy' ? 2 : Math.max(pair.coinPrecision, 2))}{' '}
              {(side === 'buy' ? quote : coin).toUpperCase()}
            </Figure>
            <Figure label={t('trade.estimatedTotal')} testId="spot-total">
              {formatAmount(total, 2)} {quote.toUpperCase()}
            </Figure>
            <Figure label={t('trade.fee')}>
              {formatAmount(fee, 4)} {quote.toUpperCase()}
            </Figure>
            <Figure label={t('trade.orderLimits')}>
              {formatAmount(pair.orderMin, 2)} – {formatAmount(pair.orderMax, 2)} {quote.toUpperCase()}
            </Figure>
          </div>
          <FundPasswordField
            needed={settings.FUND_PASSWORD_SETTING.spot}
            value={fundPwd}
            onChange={setFundPwd}
          />
          <OrderError message={error} />
          <button
            type="submit"
            className={`button button-block ${side === 'buy' ? 'button-up' : 'button-down'}`}
            disabled={!amount || !typeAllowed || (type === 'limit' && !price) || submitting}
            data-testid="spot-submit"
          >
            {t(side === 'buy' ? 'trade.buyCoin' : 'trade.sellCoin', { coin: coin.toUpperCase() })}
          </button>
        </form>
        <SubmittingOverlay visible={submitting} />
      </section>
      <section className="panel trade-orders-area" aria-label={t('trade.myOrders')}>
        <h2 className="panel-title">{t('trade.myOrders')}</h2>
        <div className="table-scroll">
          <table className="data-table" data-testid="spot-orders">
            <thead>
              <tr>
                <th className="desktop-only">{t('trade.time')}</th>
                <th>{t('trade.side')}</th>
                <th>{t('trade.price')}</th>
                <th>{t('trade.amount')}</th>
                <th>{t('trade.status')}</th>
              </tr>
            </thead>
            <tbody>
              {orders.data?.rows.map((order) => (
                <tr key={order.id} data-order-status={order.status}>
                  <td className="num muted desktop-only">{dateTime(order.createdAt)}</td>
                  <td className={order.side === 'buy' ? 'up' : 'down'}>
                    {t(`trade.${order.side}`)} · {t(`trade.${order.type}`)}
                  </td>
                  <td className="num">
                    {formatPrice(order.status === 'filled' ? order.filledPrice : order.price)}
                  </td>
                  <td className="num">{order.amount}</td>
                  <td>
                    <span className={`tag status-${order.status}`}>{t(`trade.status_${order.status}`)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {orders.data?.rows.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
      </section>
    </>
  )
}
