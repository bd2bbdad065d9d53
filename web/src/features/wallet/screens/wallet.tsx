import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { EyesToggle, HiddenAmount } from '../../../components/hidden-amount'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useAssetBalance } from '../api/get-asset-balance'
import { BalanceList } from '../components/balance-list'
import { add } from '@tradegate/shared'

/** The fund tab: USDT balances at a glance and the money actions. */
export default function WalletScreen() {
  const { t } = useTranslation()
  const { amount } = useFormatters()
  const balances = useAssetBalance()
  return (
    <Screen title={t('wallet.title')} back={false} right={<EyesToggle />}>
      <DataState {...balances}>
        {(rows) => {
          const usdt = rows
            .filter((row) => row.coin.toLowerCase() === 'usdt')
            .reduce((sum, row) => add(sum, row.available), add(0, 0))
          return (
            <>
              <div className="card">
                <p className="stat-label">{t('wallet.totalUsdt')}</p>
                <p className="stat-value" style={{ fontSize: 28 }} data-testid="wallet-total">
                  <HiddenAmount>{amount(usdt, 2)}</HiddenAmount> <span className="muted">USDT</span>
                </p>
              </div>
              <div className="stat-grid">
                <Link href="/recharge" className="button button-primary">
                  {t('menu.recharge')}
                </Link>
                <Link href="/withdraw" className="button">
                  {t('wallet.withdraw')}
                </Link>
                <Link href="/exchange" className="button">
                  {t('wallet.exchange')}
                </Link>
                <Link href="/cashflow" className="button">
                  {t('wallet.cashflow')}
                </Link>
              </div>
              <BalanceList balances={rows} />
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
