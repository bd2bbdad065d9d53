import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import type { AccountType } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { EyesToggle } from '../../../components/hidden-amount'
import { StaleNote } from '../../../components/balance-notices'
import { Screen } from '../../../components/screen'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { BalanceList } from '../components/balance-list'

const ACCOUNTS: readonly AccountType[] = ['platform', 'financial', 'contract']

/** Balances by account: platform, financial and contract assets. */
export default function AssetsScreen() {
  const { t } = useTranslation()
  const [account, setAccount] = useState<AccountType>('platform')
  const balances = useBalances()
  return (
    <Screen title={t('menu.assets')} right={<EyesToggle />}>
      <div className="segmented" role="group">
        {ACCOUNTS.map((name) => (
          <button key={name} type="button" aria-pressed={account === name} onClick={() => setAccount(name)}>
            {t(`wallet.accounts.${name}`)}
          </button>
        ))}
      </div>
      <Link href="/transfer" className="button button-block">
        {t('money.transfer.title')}
      </Link>
      <StaleNote stale={balances.stale} />
      <DataState {...balances}>
        {(rows) => <BalanceList balances={rows.filter((row) => row.account === account)} />}
      </DataState>
    </Screen>
  )
}
