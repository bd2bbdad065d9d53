import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { DataList, ListRow } from '../../../components/data-list'
import { ProductRate, RiskNote } from '../../../components/product-rate'
import { ProductTerms } from '../../../components/product-terms'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useFinanceProducts } from '../api/get-finance-products'

/** Savings products, each opening its subscription form. */
export default function FinanceScreen() {
  const { t } = useTranslation()
  const products = useFinanceProducts()
  return (
    <Screen title={t('tabBar.finance')} back={false}>
      <RiskNote />
      <Link href="/finance/holdings" className="button button-block" data-testid="open-holdings">
        {t('savings.holdings')}
      </Link>
      <DataList source={products}>
        {(product) => (
          <ListRow
            key={product.id}
            href={`/subscribe/${product.id}`}
            title={product.name}
            sub={<ProductTerms product={product} />}
            end={
              <span className="list-row-end">
                <ProductRate dailyRate={product.dailyRate} />
                <ChevronIcon size={16} />
              </span>
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
