import { useTranslation } from 'react-i18next'
import type { Balance } from '@tradegate/shared'
import { ListRow } from '../../../components/data-list'
import { HiddenAmount } from '../../../components/hidden-amount'
import { NoData } from '../../../components/no-data'
import { coinPlaces } from '../../../lib/coins'
import { useFormatters } from '../../../lib/use-formatters'

export function BalanceList({ balances }: { balances: readonly Balance[] }) {
  const { t } = useTranslation()
  const { amount } = useFormatters()
  if (balances.length === 0) return <NoData />
  return (
    <ul className="list" data-testid="balances">
      {balances.map((balance) => (
        <ListRow
          key={`${balance.account}-${balance.coin}`}
          title={balance.coin.toUpperCase()}
          sub={t(`wallet.accounts.${balance.account}`)}
          end={
            <span className="list-row-end">
              <span className="list-row-main">
                <HiddenAmount>{amount(balance.available, coinPlaces(balance.coin))}</HiddenAmount>
                <span className="list-row-sub">
                  {t('wallet.frozen')}{' '}
                  <HiddenAmount>{amount(balance.frozen, coinPlaces(balance.coin))}</HiddenAmount>
                </span>
              </span>
            </span>
          }
        />
      ))}
    </ul>
  )
}
