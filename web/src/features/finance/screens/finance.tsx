import { useTranslation } from 'react-i18next'
import { ratePercent } from '../../../lib/rates'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useFinanceProducts } from '../api/get-finance-products'

/** Savings products, each opening its subscription form. */
export default function FinanceScreen() {
  const { t } = useTranslation()
  const products = useFinanceProducts()
  return (
    <Screen title={t('tabBar.finance')} back={false}>
      <DataState {...products} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <ul className="list">
            {rows.map((product) => (
              <li key={product.id}>
                <Link href={`/subscribe/${product.id}`} className="list-row">
                  <span className="list-row-main">
                    <span className="list-row-title">{product.name}</span>
                    <span className="list-row-sub">
                      {t('finance.days', { days: product.days })} · {product.minAmount}–{product.maxAmount}{' '}
                      {product.coin.toUpperCase()}
                    </span>
                  </span>
                  <span className="list-row-end">
                    <span className="up num">{ratePercent(product.dailyRate)}%</span>
                    <ChevronIcon size={16} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
