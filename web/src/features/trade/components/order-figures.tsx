import type { Decimal } from 'decimal.js'
import { useTranslation } from 'react-i18next'
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
  const { amount } = useFormatters()
  const quote = pair.baseCoin.toUpperCase()
  return (
    <>
      <Figure label={t('trade.available')} testId="spot-available">
        {side === 'buy'
          ? `${amount(available, 2)} ${quote}`
          : `${amount(available, Math.max(pair.coinPrecision, 2))} ${pair.coin.toUpperCase()}`}
      </Figure>
      <Figure label={t('trade.estimatedTotal')} testId="spot-total">
        {amount(total, 2)} {quote}
      </Figure>
      <Figure label={t('trade.fee')}>
        {amount(fee, 4)} {quote}
      </Figure>
      <Figure label={t('trade.orderLimits')}>
        {amount(pair.orderMin, 2)} – {amount(pair.orderMax, 2)} {quote}
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
  const { price, amount } = useFormatters()
  return (
    <>
      <Figure label={t('trade.available')} testId="contract-available">
        {amount(available, 2)} USDT
      </Figure>
      <Figure label={t('trade.margin')} testId="contract-margin">
        {amount(preview.margin, 4)} USDT
      </Figure>
      <Figure label={t('trade.openFee')}>{amount(preview.openFee, 4)} USDT</Figure>
      <Figure label={t('trade.closeFee')}>{amount(preview.closeFee, 4)} USDT</Figure>
      <Figure label={t('trade.liquidationPrice')} testId="contract-liquidation">
        {sized ? price(preview.liquidationPrice) : '--'}
      </Figure>
    </>
  )
}
