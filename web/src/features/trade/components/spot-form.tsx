import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { SpotPair } from '@tradegate/shared'
import { useTicker } from '../../../lib/live'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { submitSpotOrder } from '../api/submit-spot-order'
import { availableOf, sanitiseAmount, spotAmountForPercent, spotEstimate } from '../../../lib/order-math'
import { usePickedPrice } from '../lib/price-pick'
import { AmountInput, Choice, Figure, PercentSlider, PriceField } from '../../../components/form-bits'
import { OrderForm } from './order-form'
import { useOrderSubmit } from '../../../lib/order-submit'
import type { Balance } from '@tradegate/shared'

type Side = 'buy' | 'sell'
type OrderType = 'market' | 'limit'

/** Spot buy and sell, market or limit, within the pair's limits; a tapped book price fills the limit. */
export function SpotForm({
  pair,
  balances,
  onPlaced,
}: {
  pair: SpotPair
  balances: readonly Balance[] | undefined
  onPlaced: () => void
}) {
  const { t } = useTranslation()
  const settings = useSettings()
  const ticker = useTicker(pair.symbol)
  const { amount: formatAmount } = useFormatters()
  const [side, setSide] = useState<Side>('buy')
  const [type, setType] = useState<OrderType>(pair.marketBuy ? 'market' : 'limit')
  // null until the user types or taps one: the limit then shows the last price
  const [typedPrice, setTypedPrice] = useState<string | null>(null)
  const [amount, setAmount] = useState('')
  const [percent, setPercent] = useState(0)
  const [fundPwd, setFundPwd] = useState('')
  const { submitting, error, run } = useOrderSubmit(onPlaced)

  const coin = pair.coin.toLowerCase()
  const quote = pair.baseCoin.toLowerCase()
  const available = availableOf(balances, side === 'buy' ? quote : coin, 'platform')
  const lastPrice = ticker ? sanitiseAmount(ticker.close, pair.basePrecision) : ''
  const price = typedPrice ?? lastPrice
  const orderPrice = type === 'limit' ? price : (ticker?.close ?? '0')
  const { total, fee } = spotEstimate(amount, orderPrice, pair)
  const allowed = (candidate: OrderType, forSide: Side) =>
    ({
      buy: { market: pair.marketBuy, limit: pair.limitedBuy },
      sell: { market: pair.marketSell, limit: pair.limitedSell },
    })[forSide][candidate]

  const choosePercent = (next: number) => {
    setPercent(next)
    setAmount(spotAmountForPercent(next, side, available, orderPrice, pair))
  }
  const chooseType = (next: OrderType) => {
    setType(next)
    // the limit starts at the price of the moment, and stays there until changed
    if (next === 'limit' && typedPrice === null) setTypedPrice(lastPrice || null)
  }
  usePickedPrice(pair.symbol, (picked) => {
    if (allowed('limit', side)) setType('limit')
    setTypedPrice(sanitiseAmount(picked, pair.basePrecision))
  })

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

  const unitOfAvailable = (side === 'buy' ? quote : coin).toUpperCase()
  return (
    <OrderForm
      label={t('trade.tabs.BBTrading')}
      testId="spot-form"
      onSubmit={submit}
      side={
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
      }
      type={
        <Choice
          label={t('trade.orderType')}
          value={type}
          onChange={chooseType}
          options={[
            { value: 'market', label: t('trade.market'), disabled: !allowed('market', side) },
            { value: 'limit', label: t('trade.limit'), disabled: !allowed('limit', side) },
          ]}
        />
      }
      price={
        <PriceField
          limit={type === 'limit'}
          unit={quote}
          value={price}
          onChange={(text) => setTypedPrice(sanitiseAmount(text, pair.basePrecision))}
        />
      }
      amount={
        <AmountInput
          label={t('trade.amount')}
          name="amount"
          unit={coin}
          value={amount}
          onChange={(text) => {
            setAmount(sanitiseAmount(text, pair.coinPrecision))
            setPercent(0)
          }}
          action={{ label: t('desk.max'), onClick: () => choosePercent(100), testId: 'spot-max' }}
        />
      }
      extras={<PercentSlider value={percent} onChange={choosePercent} />}
      figures={
        <>
          <Figure label={t('trade.available')} testId="spot-available">
            {formatAmount(available, side === 'buy' ? 2 : Math.max(pair.coinPrecision, 2))} {unitOfAvailable}
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
        </>
      }
      fundPassword={{ needed: settings.FUND_PASSWORD_SETTING.spot, value: fundPwd, onChange: setFundPwd }}
      error={error}
      submit={{
        label: t(side === 'buy' ? 'trade.buyCoin' : 'trade.sellCoin', { coin: coin.toUpperCase() }),
        tone: side === 'buy' ? 'up' : 'down',
        disabled: !amount || !allowed(type, side) || (type === 'limit' && !price),
        testId: 'spot-submit',
      }}
      submitting={submitting}
    />
  )
}
