import { useTranslation } from '../../../lib/i18n'
import type { Balance } from '@tradegate/shared'
import { ListRow } from '../../../components/data-list'
import { HiddenAmount } from '../../../components/hidden-amount'
import { NoData } from '../../../components/no-data'
import { useFormatters } from '../../../lib/use-formatters'

export function BalanceList({ balances }: { balances: readonly Balance[] }) {
  const { t } = useTranslation()
  const { money } = useFormatters()
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
                <HiddenAmount>{money(balance.available, balance.coin)}</HiddenAmount>
                <span className="list-row-sub">
                  {t('wallet.frozen')} <HiddenAmount>{money(balance.frozen, balance.coin)}</HiddenAmount>
                </span>
              </span>
            </span>
          }
        />
      ))}
    </ul>
  )
}
