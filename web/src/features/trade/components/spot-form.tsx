import { memo, useState, type FormEvent } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { add, toDecimal, type Balance, type SpotPair } from '@tradegate/shared'
import { useTicker } from '../../../lib/live/stream-hooks'
import { useSettings } from '../../../lib/settings'
import { showOutcome } from '../../../lib/toast'
import { submitSpotOrder } from '../api/submit-spot-order'
import { availableOf, sanitiseAmount, spotAmountForPercent, spotEstimate } from '../../../lib/order-math'
import { useOrderPrice, type OrderType } from '../lib/order-price'
import { AmountInput, Choice, PercentSlider } from '../../../components/form-bits'
import { OrderForm, OrderTypeAndPrice } from './order-form'
import { SpotFigures } from './order-figures'
import { useSubmit } from '../../../lib/submit'
import { findSpotOrder } from '../api/find-spot-order'

type Side = 'buy' | 'sell'

/**
 * Spot buy and sell, market or limit, within the pair's limits; a tapped book price fills the limit.
 * Memoised: the panel around it re-renders on every answer of the order lists, which the form does not show.
 */
export const SpotForm = memo(function SpotForm({
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
  const [side, setSide] = useState<Side>('buy')
  const [amount, setAmount] = useState('')
  const [percent, setPercent] = useState(0)
  const [fundPwd, setFundPwd] = useState('')
  const allowed = (type: OrderType) =>
    ({
      buy: { market: pair.marketBuy, limit: pair.limitedBuy },
      sell: { market: pair.marketSell, limit: pair.limitedSell },
    })[side][type]
  const order = useOrderPrice({
    symbol: pair.symbol,
    close: ticker?.close,
    scale: pair.basePrecision,
    initialType: pair.marketBuy ? 'market' : 'limit',
    limitAllowed: () => allowed('limit'),
  })
  const { type, price, orderPrice } = order
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.orders',
    onSettled: onPlaced,
    // the options of the render the user submitted from, so the lookup matches what was sent
    lookup: (sentAt) => findSpotOrder({ symbol: pair.symbol, side, type: type, amount }, sentAt),
  })

  const coin = pair.coin.toLowerCase()
  const quote = pair.baseCoin.toLowerCase()
  const available = availableOf(balances, side === 'buy' ? quote : coin, 'platform')
  const { total, fee } = spotEstimate(amount, orderPrice, pair)
  // what the order takes from the balance: the coin on a sell, the quote coin with the fee on a buy;
  // a market buy is not judged here, its price moves with every tick and the error would flicker
  const needed = side === 'sell' ? amount : type === 'limit' ? add(total, fee) : null
  const tooMuch = amount !== '' && needed !== null && toDecimal(needed).greaterThan(available)
  const choosePercent = (next: number) => {
    setPercent(next)
    setAmount(spotAmountForPercent(next, side, available, orderPrice, pair))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = {
      symbol: pair.symbol,
      side,
      type,
      amount,
      ...(type === 'limit' ? { price } : {}),
      ...(settings.FUND_PASSWORD_SETTING.spot ? { fundPwd } : {}),
    }
    void flow.run(async (signal) => {
      const order = await submitSpotOrder(body, { signal })
      showOutcome(t(order.status === 'filled' ? 'trade.orderFilled' : 'trade.orderPlaced'))
      setAmount('')
      setPercent(0)
    })
  }

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
      type={<OrderTypeAndPrice order={order} unit={quote} disabled={(candidate) => !allowed(candidate)} />}
      amount={
        <AmountInput
          label={t('trade.amount')}
          name="amount"
          unit={coin}
          value={amount}
          error={tooMuch ? t('errors.insufficientBalance') : null}
          onChange={(text) => {
            setAmount(sanitiseAmount(text, pair.coinPrecision))
            setPercent(0)
          }}
          action={{ label: t('desk.max'), onClick: () => choosePercent(100), testId: 'spot-max' }}
        />
      }
      extras={<PercentSlider value={percent} onChange={choosePercent} />}
      figures={<SpotFigures pair={pair} side={side} available={available} total={total} fee={fee} />}
      fundPassword={{ needed: settings.FUND_PASSWORD_SETTING.spot, value: fundPwd, onChange: setFundPwd }}
      flow={flow}
      submit={{
        label: t(side === 'buy' ? 'trade.buyCoin' : 'trade.sellCoin', { coin: coin.toUpperCase() }),
        tone: side === 'buy' ? 'up' : 'down',
        disabled: !amount || !allowed(type) || (type === 'limit' && !price),
        reason: !amount
          ? t('errors.amountMustBePositive')
          : type === 'limit' && !price
            ? t('errors.priceRequired')
            : null,
        testId: 'spot-submit',
      }}
    />
  )
})
