import { useTranslation } from 'react-i18next'
import { useParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
import { showToast } from '../../../lib/toast'
import { useFinanceProducts } from '../api/get-finance-products'
import { subscribeFinance } from '../api/subscribe-finance'
import { AmountForm } from '../../../components/amount-form'
import { ProductRate, RiskNote } from '../../../components/product-rate'

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
              <AmountForm
                coin={product.coin}
                label={t('finance.subscribe')}
                onSubmit={async (amount) => {
                  await subscribeFinance({ productId: product.id, amount })
                  showToast(t('common.success'))
                }}
              />
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
