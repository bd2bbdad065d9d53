import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { EyesToggle, HiddenAmount } from '../../../components/hidden-amount'
import { StaleNote } from '../../../components/balance-notices'
import { StaleHint, useStaleMark } from '../../../components/feed-status'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useUsdtPrices } from '../api/use-usdt-prices'
import { valueBalances } from '../lib/valuation'
import { WALLET_ACTIONS as ACTIONS } from '../lib/wallet-actions'

/** The fund tab: everything held, valued in USDT at live prices, and the money actions. */
export default function WalletScreen() {
  const { t } = useTranslation()
  const { value, money, decimal } = useFormatters()
  const balances = useBalances()
  const priceOf = useUsdtPrices()
  // the valuation follows the live prices: grey while they are not live, as every price display is
  const { stale: pricesStale, mark } = useStaleMark()
  return (
    <Screen title={t('wallet.title')} back={false} right={<EyesToggle />}>
      <StaleNote stale={balances.stale} />
      <DataState {...balances}>
        {(rows) => {
          const valuation = valueBalances(rows, priceOf)
          return (
            <>
              <div className="card" data-testid="wallet-total-card" {...mark}>
                <StaleHint stale={pricesStale} />
                <p className="stat-label">{t('money.wallet.total')}</p>
                <p className="stat-value" style={{ fontSize: 28 }}>
                  <HiddenAmount testId="wallet-total">{value(valuation.total)}</HiddenAmount>{' '}
                  <span className="muted">USDT</span>
                </p>
                <p className="muted">{t('money.wallet.totalNote')}</p>
              </div>
              <div className="action-grid">
                {ACTIONS.map((action) => (
                  <Link
                    key={action.href}
                    href={action.href}
                    className={'primary' in action ? 'button button-primary' : 'button'}
                  >
                    {t(action.label)}
                  </Link>
                ))}
              </div>
              <ul className="list" data-testid="coin-values" {...mark}>
                {valuation.coins.map((row) => (
                  <li key={row.coin} className="list-row" data-coin={row.coin}>
                    <span className="list-row-main">
                      <span className="list-row-title">{row.coin.toUpperCase()}</span>
                      <span className="list-row-sub">
                        {t('money.wallet.price')}{' '}
                        <span className="num">
                          <span data-testid="coin-price">
                            {row.price === undefined ? '--' : decimal(row.price)}
                          </span>{' '}
                          USDT
                        </span>
                      </span>
                    </span>
                    <span className="list-row-main list-row-end-text">
                      <span className="list-row-title num">
                        <HiddenAmount testId="coin-amount">{money(row.amount, row.coin)}</HiddenAmount>
                      </span>
                      <span className="list-row-sub num">
                        ≈{' '}
                        <HiddenAmount testId="coin-value">
                          {row.value === undefined ? '--' : decimal(row.value)}
                        </HiddenAmount>{' '}
                        USDT
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
