import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MoneyRequest } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useRechargeList } from '../api/get-recharge-list'
import { useWithdrawList } from '../api/get-withdraw-list'

function RequestRows({ rows }: { rows: readonly MoneyRequest[] }) {
  const { t } = useTranslation()
  const { dateTime } = useFormatters()
  return (
    <ul className="list">
      {rows.map((row) => (
        <li key={row.id} className="list-row">
          <span className="list-row-main">
            <span className="list-row-title num">
              {row.amount} {row.coin.toUpperCase()}
            </span>
            <span className="list-row-sub num">{dateTime(row.createdAt)}</span>
          </span>
          <span className="tag">{t(`wallet.status.${row.status}`)}</span>
        </li>
      ))}
    </ul>
  )
}

/** Deposit and withdrawal history. */
export default function WithdrawDepositScreen() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<'deposit' | 'withdraw'>('deposit')
  const deposits = useRechargeList()
  const withdrawals = useWithdrawList()
  const shown = tab === 'deposit' ? deposits : withdrawals
  return (
    <Screen title={t('wallet.history')}>
      <div className="segmented" role="group">
        <button type="button" aria-pressed={tab === 'deposit'} onClick={() => setTab('deposit')}>
          {t('menu.recharge')}
        </button>
        <button type="button" aria-pressed={tab === 'withdraw'} onClick={() => setTab('withdraw')}>
          {t('wallet.withdraw')}
        </button>
      </div>
      <DataState {...shown} isEmpty={(page) => page.rows.length === 0}>
        {(page) => <RequestRows rows={page.rows} />}
      </DataState>
    </Screen>
  )
}
