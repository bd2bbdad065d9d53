import { useTranslation } from '../../../lib/i18n'
import { HoldingsList } from '../../../components/holdings-list'
import { Screen } from '../../../components/screen'
import { useFinanceProducts } from '../api/get-finance-products'
import { financeHoldingRedeemed, redeemFinance, useFinanceHoldings } from '../api/holdings'

/** The user's savings: each holding with its interest and term, and redeem for running ones. */
export default function FinanceHoldingsScreen() {
  const { t } = useTranslation()
  const holdings = useFinanceHoldings()
  const products = useFinanceProducts()
  return (
    <Screen title={t('savings.holdings')}>
      <HoldingsList
        holdings={holdings}
        products={products.data ?? []}
        redeem={(id, signal) => redeemFinance(id, { signal })}
        redeemed={financeHoldingRedeemed}
      />
    </Screen>
  )
}
