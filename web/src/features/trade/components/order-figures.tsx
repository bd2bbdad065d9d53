import type { Decimal } from 'decimal.js'
import { useTranslation } from '../../../lib/i18n'
import type { SpotPair } from '@tradegate/shared'
import { Figure } from '../../../components/form-bits'
import { useFormatters } from '../../../lib/use-formatters'
import type { contractPreview } from '../../../lib/order-math'

// The figures under an order form: what the user has, and what the order will cost.

export function SpotFigures({
  pair,
  side,
  available,
  total,
  fee,
}: {
  pair: SpotPair
  side: 'buy' | 'sell'
  available: Decimal.Value
  total: Decimal.Value
  fee: Decimal.Value
}) {
  const { t } = useTranslation()
  const { balance, value, fee: showFee } = useFormatters()
  const quote = pair.baseCoin.toUpperCase()
  return (
    <>
      <Figure label={t('trade.available')} testId="spot-available">
        {side === 'buy'
          ? `${balance(available, 2)} ${quote}`
          : `${balance(available, Math.max(pair.coinPrecision, 2))} ${pair.coin.toUpperCase()}`}
      </Figure>
      <Figure label={t('trade.estimatedTotal')} testId="spot-total">
        {value(total)} {quote}
      </Figure>
      <Figure label={t('trade.fee')}>
        {showFee(fee)} {quote}
      </Figure>
      <Figure label={t('trade.orderLimits')}>
        {value(pair.orderMin)} – {value(pair.orderMax)} {quote}
      </Figure>
    </>
  )
}

export function ContractFigures({
  available,
  preview,
  sized,
}: {
  available: Decimal.Value
  preview: ReturnType<typeof contractPreview>
  /** a valid share count is entered: without one there is no liquidation price */
  sized: boolean
}) {
  const { t } = useTranslation()
  const { price, balance, cash, fee: showFee } = useFormatters()
  return (
    <>
      <Figure label={t('trade.available')} testId="contract-available">
        {balance(available, 2)} USDT
      </Figure>
      <Figure label={t('trade.margin')} testId="contract-margin">
        {cash(preview.margin)} USDT
      </Figure>
      <Figure label={t('trade.openFee')}>{showFee(preview.openFee)} USDT</Figure>
      <Figure label={t('trade.closeFee')}>{showFee(preview.closeFee)} USDT</Figure>
      <Figure label={t('trade.liquidationPrice')} testId="contract-liquidation">
        {sized ? price(preview.liquidationPrice) : '--'}
      </Figure>
    </>
  )
}
