import { useTranslation } from '../lib/i18n'
import { useFormatters } from '../lib/use-formatters'

/** An investment product's term and amount range, e.g. "30 days · 100–5000 USDT". */
export function ProductTerms({
  product,
}: {
  product: { days: number; minAmount: string; maxAmount: string; coin: string }
}) {
  const { t } = useTranslation()
  const { decimal } = useFormatters()
  return (
    <>
      {t('finance.days', { days: product.days })} · {decimal(product.minAmount)}–{decimal(product.maxAmount)}{' '}
      {product.coin.toUpperCase()}
    </>
  )
}
