import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useRechargeList } from '../api/get-recharge-list'
import { useWithdrawList } from '../api/get-withdraw-list'

/** Deposit and withdrawal history. */
export default function WithdrawDepositScreen() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<'deposit' | 'withdraw'>('deposit')
  const deposits = useRechargeList()
  const withdrawals = useWithdrawList()
  const shown = tab === 'deposit' ? deposits : withdrawals
  const { dateTime } = useFormatters()
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
      <DataList source={shown}>
        {(row) => (
          <ListRow
            key={row.id}
            title={`${row.amount} ${row.coin.toUpperCase()}`}
            titleClassName="num"
            sub={dateTime(row.createdAt)}
            subClassName="num"
            end={<span className="tag">{t(`wallet.status.${row.status}`)}</span>}
          />
        )}
      </DataList>
    </Screen>
  )
}
