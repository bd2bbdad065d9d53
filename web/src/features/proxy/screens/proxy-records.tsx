import { useTranslation } from '../../../lib/i18n'
import { HoldingsList } from '../../../components/holdings-list'
import { Screen } from '../../../components/screen'
import { useProxyProducts } from '../api/get-proxy-products'
import { useProxyRecords } from '../api/get-proxy-records'
import { proxyHoldingRedeemed, redeemProxy } from '../api/holdings'

/** Proxy investments held: each with its interest and term, and redeem for running ones. */
export default function ProxyRecordsScreen() {
  const { t } = useTranslation()
  const records = useProxyRecords()
  const products = useProxyProducts()
  return (
    <Screen title={t('proxy.records')}>
      <HoldingsList
        holdings={records}
        products={products.data ?? []}
        redeem={(id, signal) => redeemProxy(id, { signal })}
        redeemed={proxyHoldingRedeemed}
      />
    </Screen>
  )
}
