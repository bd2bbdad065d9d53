import { useTranslation } from 'react-i18next'
import { ratePercent } from '../../../lib/rates'
import { useParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useFinanceProducts } from '../api/get-finance-products'
import { subscribeFinance } from '../api/subscribe-finance'
import { AmountForm } from '../../../components/amount-form'

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
                <div className="stat">
                  <span className="stat-label">{product.name}</span>
                  <span className="stat-value up num">{ratePercent(product.dailyRate)}%</span>
                </div>
                <div className="stat">
                  <span className="stat-label">{t('finance.term')}</span>
                  <span className="stat-value">{t('finance.days', { days: product.days })}</span>
                </div>
              </div>
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
