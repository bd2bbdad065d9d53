import { useTranslation } from '../../../lib/i18n'
import { Link, useParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { ProductRate, RiskNote } from '../../../components/product-rate'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
import { SubscribeForm } from '../../../components/subscribe-form'
import { useFinanceProducts } from '../api/get-finance-products'
import { findFinanceHolding } from '../api/holdings'
import { subscribeFinance } from '../api/subscribe-finance'

export default function SubscribeScreen() {
  const { t } = useTranslation()
  const { id } = useParams<{ id: string }>()
  const products = useFinanceProducts()
  return (
    <Screen title={t('finance.subscribe')}>
      <DataState {...products} isEmpty={(rows) => !rows.some((row) => String(row.id) === id)}>
        {(rows) => {
          const product = rows.find((row) => String(row.id) === id)
          if (!product) return null
          return (
            <>
              <div className="card stat-grid">
                <Stat label={product.name} valueClassName="stat-value">
                  <ProductRate dailyRate={product.dailyRate} />
                </Stat>
                <Stat label={t('finance.term')} valueClassName="stat-value">
                  {t('finance.days', { days: product.days })}
                </Stat>
              </div>
              <RiskNote />
              <SubscribeForm
                product={product}
                subscribe={(amount, signal) =>
                  subscribeFinance({ productId: product.id, amount }, { signal })
                }
                lookup={(amount, sentAt) => findFinanceHolding(product.id, amount, sentAt)}
              />
              <Link href="/finance/holdings" className="button button-block">
                {t('savings.holdings')}
              </Link>
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
