import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { RowText } from '../../../components/data-list'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { SubscribeForm } from '../../../components/subscribe-form'
import { findProxyHolding } from '../api/holdings'
import { useProxyProducts } from '../api/get-proxy-products'
import { subscribeProxy } from '../api/subscribe-proxy'
import { ProductRate, RiskNote } from '../../../components/product-rate'
import { ProductTerms } from '../../../components/product-terms'

/** Proxy investing: delegated-trading products and a subscription form. */
export default function ProxyScreen() {
  const { t } = useTranslation()
  const products = useProxyProducts()
  const [chosen, setChosen] = useState<number | null>(null)
  return (
    <Screen title={t('menu.proxy')}>
      <div className="stat-grid">
        <Link href="/proxy/records" className="button">
          {t('proxy.records')}
        </Link>
        <Link href="/proxy/earnings" className="button">
          {t('proxy.earnings')}
        </Link>
      </div>
      <RiskNote />
      <DataState {...products} isEmpty={(rows) => rows.length === 0}>
        {(rows) => {
          const product = rows.find((row) => row.id === chosen) ?? rows[0]
          return (
            <>
              <ul className="list">
                {rows.map((row) => (
                  <li key={row.id}>
                    <button
                      type="button"
                      className="list-row"
                      aria-pressed={row.id === product?.id}
                      onClick={() => setChosen(row.id)}
                    >
                      <RowText title={row.name} sub={<ProductTerms product={row} />} />
                      <ProductRate dailyRate={row.dailyRate} />
                    </button>
                  </li>
                ))}
              </ul>
              {product && (
                <div className="card">
                  <p className="section-title">{product.name}</p>
                  <SubscribeForm
                    key={product.id}
                    product={product}
                    subscribe={(amount, signal) =>
                      subscribeProxy({ productId: product.id, amount }, { signal })
                    }
                    lookup={(amount, sentAt) => findProxyHolding(product.id, amount, sentAt)}
                  />
                </div>
              )}
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
