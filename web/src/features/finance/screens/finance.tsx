import { useTranslation } from 'react-i18next'
import { ratePercent } from '../../../lib/rates'
import { DataList, ListRow } from '../../../components/data-list'
import { ProductTerms } from '../components/product-terms'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useFinanceProducts } from '../api/get-finance-products'

/** Savings products, each opening its subscription form. */
export default function FinanceScreen() {
  const { t } = useTranslation()
  const products = useFinanceProducts()
  return (
    <Screen title={t('tabBar.finance')} back={false}>
      <DataList source={products}>
        {(product) => (
          <ListRow
            key={product.id}
            href={`/subscribe/${product.id}`}
            title={product.name}
            sub={<ProductTerms product={product} />}
            end={
              <span className="list-row-end">
                <span className="up num">{ratePercent(product.dailyRate)}%</span>
                <ChevronIcon size={16} />
              </span>
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
