import { useTranslation } from 'react-i18next'

/** An investment product's term and amount range, e.g. "30 days · 100–5000 USDT". */
export function ProductTerms({
  product,
}: {
  product: { days: number; minAmount: string; maxAmount: string; coin: string }
}) {
  const { t } = useTranslation()
  return (
    <>
      {t('finance.days', { days: product.days })} · {product.minAmount}–{product.maxAmount}{' '}
      {product.coin.toUpperCase()}
    </>
  )
}
